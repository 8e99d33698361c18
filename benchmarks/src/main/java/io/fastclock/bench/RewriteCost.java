package io.fastclock.bench;

import io.fastclock.asm.ClockCallRewriter;
import io.fastclock.rewrite.ClockReplacements;
import io.fastclock.rewrite.ConstantPoolRewriter;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

/**
 * Per-class cost of the clock rewrite, the constant-pool rewrite against ASM's, on the classes of this
 * JDK's runtime image that the table matches (the agent's classes and ASM's jar on the class path:
 * fastclock.jar keeps its classes out of the class path).
 *
 * <pre>
 *   java -cp agent/target/classes:ASM.jar:BENCH_CLASSES io.fastclock.bench.RewriteCost warm 30
 *   java -cp ... io.fastclock.bench.RewriteCost first pool|asm   (one first rewrite in a fresh JVM, as at start-up)
 * </pre>
 * warm: each class rewritten in rounds, its best time kept; prints median and mean over the classes,
 * then the best time for the benchmarks' Hello (a small application class).
 * first: the first rewrite of the benchmarks' Hello in this JVM, class loading of the rewriter included.
 */
public final class RewriteCost {
    public static void main(String[] args) throws Exception {
        ClockReplacements table = ClockReplacements.all();
        ConstantPoolRewriter pool = new ConstantPoolRewriter(table);
        byte[] hello;
        try (InputStream in = RewriteCost.class.getResourceAsStream("startup/Hello.class")) {
            hello = in.readAllBytes();
        }
        if (args[0].equals("first")) {
            long t0 = System.nanoTime();
            io.fastclock.rewrite.Rewritten r = args[1].equals("pool") ? pool.rewrite(hello)
                    : ClockCallRewriter.rewriteCounting(hello, table);
            long t1 = System.nanoTime();
            System.out.printf("first %s: %.1f us, %d call sites%n", args[1], (t1 - t0) / 1e3, r.callSites());
            return;
        }
        List<byte[]> classes = new ArrayList<>();
        try (Stream<Path> s = Files.walk(FileSystems.getFileSystem(URI.create("jrt:/")).getPath("/modules"))) {
            for (Path p : (Iterable<Path>) s.filter(f -> f.toString().endsWith(".class"))::iterator) {
                byte[] b = Files.readAllBytes(p);
                try {
                    if (ClockCallRewriter.rewriteCounting(b, table) != null) {
                        classes.add(b);
                    }
                } catch (RuntimeException e) {
                    // not the subject here
                }
            }
        }
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 30;
        long[] bestPool = new long[classes.size()];
        long[] bestAsm = new long[classes.size()];
        Arrays.fill(bestPool, Long.MAX_VALUE);
        Arrays.fill(bestAsm, Long.MAX_VALUE);
        for (int round = 0; round < rounds; round++) {
            for (int i = 0; i < classes.size(); i++) {
                byte[] b = classes.get(i);
                long a = System.nanoTime();
                pool.rewrite(b);
                long m = System.nanoTime();
                ClockCallRewriter.rewriteCounting(b, table);
                long z = System.nanoTime();
                bestPool[i] = Math.min(bestPool[i], m - a);
                bestAsm[i] = Math.min(bestAsm[i], z - m);
            }
        }
        System.out.printf("%d rewritten classes of the runtime image (Java %s), best of %d rounds each:%n",
                classes.size(), Runtime.version(), rounds);
        System.out.printf("  constant pool: median %.1f us, mean %.1f us%n", median(bestPool), mean(bestPool));
        System.out.printf("  ASM:           median %.1f us, mean %.1f us%n", median(bestAsm), mean(bestAsm));
        long helloPool = Long.MAX_VALUE;
        long helloAsm = Long.MAX_VALUE;
        for (int i = 0; i < 20_000; i++) {
            long a = System.nanoTime();
            pool.rewrite(hello);
            long m = System.nanoTime();
            ClockCallRewriter.rewriteCounting(hello, table);
            long z = System.nanoTime();
            helloPool = Math.min(helloPool, m - a);
            helloAsm = Math.min(helloAsm, z - m);
        }
        System.out.printf("  the benchmarks' Hello (%d bytes), best of 20000: constant pool %.1f us, ASM %.1f us%n",
                hello.length, helloPool / 1e3, helloAsm / 1e3);
    }

    private static double median(long[] v) {
        long[] s = v.clone();
        Arrays.sort(s);
        return s[s.length / 2] / 1e3;
    }

    private static double mean(long[] v) {
        return Arrays.stream(v).average().orElse(0) / 1e3;
    }
}
