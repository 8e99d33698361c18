package io.fastclock.it.apps;

import io.fastclock.asm.ClockCallRewriter;
import io.fastclock.rewrite.ClockReplacements;
import io.fastclock.rewrite.ConstantPoolRewriter;
import io.fastclock.rewrite.JdkScope;
import io.fastclock.rewrite.Rewritten;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.util.CheckClassAdapter;
import org.objectweb.asm.util.Textifier;
import org.objectweb.asm.util.TraceClassVisitor;

/**
 * Rewrites this JDK's own class files with the agent's rewriter (fastclock.jar on the class path,
 * every row of ClockReplacements) and runs ASM's verifier (CheckClassAdapter.verify, data flow with
 * a SimpleVerifier) on the result. Prints, for each of JdkScope.TIME_CLASSES,
 * {@code time.NAME=absent | unchanged | SITES sites ok | FAIL ...}; then for every class in the
 * runtime image (jrt:/) that names a replaced method (what jdk=all may rewrite): {@code all.rewritten},
 * {@code all.callSites}, {@code all.failed} (verifier messages that the original class does not
 * also get) and {@code all.firstFailure}.
 *
 * <p>Each class is rewritten twice, by ASM's rewriter and by the agent's constant-pool rewrite
 * (ConstantPoolRewriter, what the agent runs first): the pool rewrite must give ASM's result (same
 * call sites, same Textifier dump) and pass the verifier alike; a time class where it does not prints
 * {@code FAIL pool ...}; over the image: {@code all.poolRewritten}, {@code all.poolToAsm} (handed to
 * ASM), {@code all.poolDiffers} and {@code all.poolFirstDifference}.
 */
public final class JdkVerifyApp {
    public static void main(String[] args) throws Exception {
        ClockReplacements table = ClockReplacements.all();
        int timeSites = 0;
        for (String name : JdkScope.TIME_CLASSES) {
            byte[] original;
            try (InputStream in = ClassLoader.getSystemResourceAsStream(name + ".class")) {
                original = in == null ? null : in.readAllBytes();
            }
            if (original == null) {
                System.out.println("time." + name + "=absent");
                continue;
            }
            Rewritten result = ClockCallRewriter.rewriteCounting(original, table);
            if (result == null) {
                System.out.println("time." + name + "=unchanged");
                continue;
            }
            timeSites += result.callSites();
            String poolDifference = poolDifference(original, result);
            if (poolDifference != null) {
                System.out.println("time." + name + "=FAIL pool " + poolDifference);
                continue;
            }
            String messages = verify(result.bytes());
            System.out.println("time." + name + "=" + (messages.isEmpty() ? result.callSites() + " sites ok"
                    : "FAIL " + oneLine(messages)));
        }
        System.out.println("time.callSites=" + timeSites);
        everyClassInTheImage(table);
        System.out.println("done=ok");
    }

    private static void everyClassInTheImage(ClockReplacements table) throws IOException {
        FileSystem jrt = FileSystems.getFileSystem(URI.create("jrt:/"));
        List<Path> classes;
        try (Stream<Path> walk = Files.walk(jrt.getPath("/modules"))) {
            classes = walk.filter(p -> p.toString().endsWith(".class") && !p.toString().endsWith("module-info.class"))
                    .collect(Collectors.toList());
        }
        byte[][] owners = new byte[table.owners().length][];
        for (int i = 0; i < owners.length; i++) {
            owners[i] = table.owners()[i].getBytes(StandardCharsets.ISO_8859_1);
        }
        int rewritten = 0;
        int callSites = 0;
        int failed = 0;
        String firstFailure = "none";
        poolRewritten = 0;
        poolToAsm = 0;
        int poolDiffers = 0;
        String poolFirstDifference = "none";
        for (Path p : classes) {
            byte[] original = Files.readAllBytes(p);
            if (!mentionsAny(original, owners)) {
                continue;
            }
            Rewritten result;
            try {
                result = ClockCallRewriter.rewriteCounting(original, table);
            } catch (RuntimeException e) {
                failed++;
                firstFailure = firstFailure.equals("none") ? p + ": rewrite threw " + e : firstFailure;
                continue;
            }
            String poolDifference = poolDifference(original, result);
            if (poolDifference != null) {
                poolDiffers++;
                poolFirstDifference = poolFirstDifference.equals("none") ? p + ": " + poolDifference
                        : poolFirstDifference;
            }
            if (result == null) {
                continue;
            }
            rewritten++;
            callSites += result.callSites();
            String messages = verify(result.bytes());
            // A class the system loader cannot resolve (jdk.hotspot.agent's, outside the boot layer)
            // fails the data-flow analysis with or without the rewrite: only new messages count.
            if (!messages.isEmpty() && !withoutStackTraces(messages).equals(withoutStackTraces(verify(original)))) {
                failed++;
                firstFailure = firstFailure.equals("none") ? p + ": " + oneLine(messages) : firstFailure;
            }
        }
        System.out.println("all.scanned=" + classes.size());
        System.out.println("all.rewritten=" + rewritten);
        System.out.println("all.callSites=" + callSites);
        System.out.println("all.failed=" + failed);
        System.out.println("all.firstFailure=" + firstFailure);
        System.out.println("all.poolRewritten=" + poolRewritten);
        System.out.println("all.poolToAsm=" + poolToAsm);
        System.out.println("all.poolDiffers=" + poolDiffers);
        System.out.println("all.poolFirstDifference=" + poolFirstDifference);
    }

    private static final ConstantPoolRewriter POOL = new ConstantPoolRewriter(ClockReplacements.all());
    private static int poolRewritten;
    private static int poolToAsm;

    /**
     * Null when the constant-pool rewrite of {@code original} gives ASM's {@code asm} result (or hands
     * the class to ASM); else what differs. Its result must also verify as ASM's does.
     */
    static String poolDifference(byte[] original, Rewritten asm) {
        Rewritten pool;
        try {
            pool = POOL.rewrite(original);
        } catch (RuntimeException e) {
            pool = ConstantPoolRewriter.ASM_NEEDED;
        }
        if (pool == ConstantPoolRewriter.ASM_NEEDED) {
            poolToAsm++;
            return null;
        }
        if (pool == null || asm == null) {
            return pool == asm ? null : "ASM " + (asm == null ? "unchanged" : "rewrote") + ", pool "
                    + (pool == null ? "unchanged" : "rewrote");
        }
        poolRewritten++;
        if (pool.callSites() != asm.callSites()) {
            return "call sites: ASM " + asm.callSites() + ", pool " + pool.callSites();
        }
        if (!text(pool.bytes()).equals(text(asm.bytes()))) {
            return "dump differs from ASM's";
        }
        String vp = withoutStackTraces(verify(pool.bytes()));
        String va = withoutStackTraces(verify(asm.bytes()));
        return vp.equals(va) ? null : "verifier: " + oneLine(vp);
    }

    private static String text(byte[] classfile) {
        StringWriter sw = new StringWriter();
        new ClassReader(classfile).accept(new TraceClassVisitor(null, new Textifier(), new PrintWriter(sw)), 0);
        return sw.toString();
    }

    /** What ASM's verifier says about the class (empty: nothing). */
    static String verify(byte[] classfile) {
        StringWriter out = new StringWriter();
        try {
            CheckClassAdapter.verify(new ClassReader(classfile), ClassLoader.getSystemClassLoader(), false,
                    new PrintWriter(out));
        } catch (RuntimeException | LinkageError e) {
            out.write("verifier threw " + e);
        }
        return out.toString();
    }

    private static String withoutStackTraces(String messages) {
        return java.util.Arrays.stream(messages.split("\n")).filter(l -> !l.trim().startsWith("at "))
                .collect(Collectors.joining("\n"));
    }

    private static boolean mentionsAny(byte[] bytes, byte[][] needles) {
        for (byte[] needle : needles) {
            outer:
            for (int i = 0; i + needle.length <= bytes.length; i++) {
                for (int j = 0; j < needle.length; j++) {
                    if (bytes[i + j] != needle[j]) {
                        continue outer;
                    }
                }
                return true;
            }
        }
        return false;
    }

    private static String oneLine(String s) {
        String flat = s.replace('\n', ' ').replace('\r', ' ');
        return flat.length() > 400 ? flat.substring(0, 400) + "..." : flat;
    }
}
