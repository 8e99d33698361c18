package io.fastclock.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fastclock.rewrite.ClockReplacements;
import io.fastclock.rewrite.RuntimePackages;
import io.fastclock.runtime.FastClock;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;

/**
 * {@link BootRuntime#CLASSES} is written by hand, in the order the classes must be defined; this checks
 * it against what javac made of the runtime's packages. A class of those packages left off the list is
 * in neither the boot loader nor the agent's module (entry.PrivateModule leaves the packages out of the
 * module), so the first call that needs it fails with NoClassDefFoundError; a nested class added to
 * ClockTransformer is the easy way there.
 */
class BootRuntimeClassesTest {
    private static final Pattern AGENT_TYPE = Pattern.compile("L(io/fastclock/[A-Za-z0-9_/$]+);");

    @Test
    void theListNamesEveryCompiledClassOfTheRuntimesPackagesAndNoOther() throws IOException {
        Set<String> compiled = compiledRuntimeClasses();
        Set<String> listed = new TreeSet<>(Arrays.asList(BootRuntime.CLASSES));
        Set<String> missing = new TreeSet<>(compiled);
        missing.removeAll(listed);
        Set<String> gone = new TreeSet<>(listed);
        gone.removeAll(compiled);
        assertTrue(missing.isEmpty() && gone.isEmpty(), "BootRuntime.CLASSES misses " + missing
                + " and names " + gone + ", which javac did not make");
        assertEquals(listed.size(), BootRuntime.CLASSES.length, "a class named twice");
    }

    @Test
    void everySupertypeIsDefinedBeforeItsSubtypes() throws IOException {
        List<String> order = Arrays.asList(BootRuntime.CLASSES);
        for (int i = 0; i < order.size(); i++) {
            ClassReader r = new ClassReader(bytes(order.get(i)));
            List<String> supertypes = new ArrayList<>(Arrays.asList(r.getInterfaces()));
            supertypes.add(r.getSuperName());
            for (String s : supertypes) {
                if (s != null && RuntimePackages.contains(s)) {
                    int at = order.indexOf(s.replace('/', '.'));
                    assertTrue(at >= 0 && at < i, order.get(i) + " is defined before its supertype " + s);
                }
            }
        }
    }

    /** The boot loader sees nothing of the agent: the runtime's classes name only themselves and the JDK. */
    @Test
    void theBootRuntimeNamesNoClassOutsideItself() throws IOException {
        List<String> outside = new ArrayList<>();
        for (String c : BootRuntime.CLASSES) {
            for (String name : typesNamed(bytes(c))) {
                if (name.startsWith("io/fastclock/") && !Arrays.asList(BootRuntime.CLASSES).contains(name.replace('/', '.'))) {
                    outside.add(c + " names " + name);
                }
            }
        }
        assertTrue(outside.isEmpty(), String.join("\n", outside));
    }

    /**
     * The JNA adapter is defined by a loader that sees only the runtime's loader and JNA
     * (nativelib.JnaLoader): it too may name no other class of the agent (its backend name is a
     * constant javac copies in).
     */
    @Test
    void theJnaAdapterNamesOnlyTheRuntime() throws IOException {
        byte[] adapter;
        try (InputStream in = BootRuntimeClassesTest.class.getResourceAsStream("/io/fastclock/jna/JnaCoarseMillis.class")) {
            adapter = in.readAllBytes();
        }
        List<String> outside = new ArrayList<>();
        for (String name : typesNamed(adapter)) {
            if (name.startsWith("io/fastclock/") && !name.startsWith("io/fastclock/runtime/") && !name.startsWith("io/fastclock/jna/")) {
                outside.add(name);
            }
        }
        assertTrue(outside.isEmpty(), "JnaCoarseMillis names " + outside);
    }

    /** What rewritten call sites link to is in the list. */
    @Test
    void theRewritesTargetIsABootClass() {
        assertTrue(Arrays.asList(BootRuntime.CLASSES).contains(ClockReplacements.FAST_CLOCK.replace('/', '.')),
                ClockReplacements.FAST_CLOCK);
    }

    /** The module's packages, the transformer's idea of them and the entry's copy are one list. */
    @Test
    void theRuntimesPackagesAreOneList() {
        Set<String> definer = new HashSet<>(Arrays.asList(BootRuntime.INNER));
        definer.add(BootRuntime.API);
        assertEquals(new HashSet<>(Arrays.asList(RuntimePackages.PACKAGES)), definer);
        assertEquals(RuntimePackages.MODULE, BootRuntime.MODULE);
        for (String pkg : RuntimePackages.PACKAGES) {
            assertTrue(RuntimePackages.contains(pkg.replace('.', '/') + "/X"), pkg);
        }
    }

    /** Classes named in the constant pool (its Class entries) and in descriptors and signatures ({@code Lio/...;}). */
    private static Set<String> typesNamed(byte[] classfile) {
        Set<String> out = new HashSet<>();
        ClassReader r = new ClassReader(classfile);
        char[] buf = new char[r.getMaxStringLength()];
        for (int i = 1; i < r.getItemCount(); i++) {
            int offset = r.getItem(i);
            if (offset != 0 && r.readByte(offset - 1) == 7) { // CONSTANT_Class
                out.add(r.readUTF8(offset, buf));
            }
        }
        Matcher m = AGENT_TYPE.matcher(new String(classfile, java.nio.charset.StandardCharsets.ISO_8859_1));
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    private static Path classesRoot() {
        try {
            Path fastClock = Paths.get(FastClock.class.getResource("FastClock.class").toURI());
            return fastClock.getParent().getParent().getParent().getParent();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Set<String> compiledRuntimeClasses() throws IOException {
        Set<String> out = new TreeSet<>();
        for (String pkg : RuntimePackages.PACKAGES) {
            try (Stream<Path> files = Files.list(classesRoot().resolve(pkg.replace('.', '/')))) {
                files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".class"))
                        .forEach(n -> out.add(pkg + "." + n.substring(0, n.length() - ".class".length())));
            }
        }
        assertTrue(out.contains("io.fastclock.runtime.FastClock"), "the compiled runtime was not found: " + out);
        return out;
    }

    private static byte[] bytes(String className) throws IOException {
        return Files.readAllBytes(classesRoot().resolve(className.replace('.', '/') + ".class"));
    }
}
