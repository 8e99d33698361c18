package io.fastclock.it.apps;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;

/**
 * For integration-tests/attach-measure.sh (a measurement, not a test): defines CLASSES generated classes (one in ten calls
 * the clocks, the rest do not), then THREADS threads read both clocks through a small method for
 * SECONDS seconds while the main thread prints the ns per read of every 250 ms window, so that the
 * figure before and after an attach can be read off. Prints "ready" once the classes are loaded.
 *
 * <p>args: classes threads seconds [files]: with "files" the classes are written to a directory and
 * loaded from there by URLClassLoaders (their class files can be read, as from a jar); without, they
 * are defined from bytes (generated at run time: no class file to read).
 */
public final class AttachBenchApp {
    private static volatile boolean stop;
    private static long sink;

    public static void main(String[] args) throws Exception {
        int classes = Integer.parseInt(args[0]);
        int threads = Integer.parseInt(args[1]);
        int seconds = Integer.parseInt(args[2]);
        boolean files = args.length > 3 && args[3].equals("files");
        java.nio.file.Path dir = files ? java.nio.file.Files.createTempDirectory("attach-bench") : null;
        List<Method> runs = new ArrayList<>();
        ConcurrentLoadApp.GenLoader loader = null;
        java.net.URLClassLoader urlLoader = null;
        for (int i = 0; i < classes; i++) {
            if (loader == null || i % 50 == 0) {
                loader = new ConcurrentLoadApp.GenLoader(AttachBenchApp.class.getClassLoader());
                urlLoader = files ? new java.net.URLClassLoader(new java.net.URL[] {dir.toUri().toURL()},
                        AttachBenchApp.class.getClassLoader()) : null;
            }
            String name = "bench/p" + (i % 20) + "/C" + i;
            byte[] bytes = i % 10 == 0 ? ConcurrentLoadApp.generate(name, i % 20 == 0) : plain(name);
            Class<?> c;
            if (files) {
                java.nio.file.Path file = dir.resolve(name + ".class");
                java.nio.file.Files.createDirectories(file.getParent());
                java.nio.file.Files.write(file, bytes);
                c = urlLoader.loadClass(name.replace('/', '.'));
            } else {
                c = loader.define(name.replace('/', '.'), bytes);
            }
            if (i % 10 == 0) {
                runs.add(c.getMethod("run"));
            }
        }
        for (Method m : runs) {
            m.invoke(null);
        }
        long[] counts = new long[threads * 16];
        for (int t = 0; t < threads; t++) {
            final int slot = t * 16;
            Thread th = new Thread(() -> {
                while (!stop) {
                    for (int i = 0; i < 1000; i++) {
                        sink += read();
                    }
                    counts[slot] += 1000;
                }
            }, "reader-" + t);
            th.setDaemon(true);
            th.start();
        }
        System.out.println("loadedClasses=" + classes);
        System.out.println("ready");
        System.out.flush();
        long start = System.nanoTime();
        long last = 0;
        long lastAt = start;
        while (System.nanoTime() - start < seconds * 1_000_000_000L) {
            Thread.sleep(250);
            long now = System.nanoTime();
            long total = 0;
            for (int t = 0; t < threads; t++) {
                total += counts[t * 16];
            }
            double nsPerRead = (now - lastAt) * (double) threads / Math.max(1, total - last) / 2; // two clocks a read
            System.out.printf("t=%d ms ns/read=%.1f%n", (now - start) / 1_000_000, nsPerRead);
            System.out.flush();
            last = total;
            lastAt = now;
        }
        stop = true;
        System.out.println("sinkNonZero=" + (sink != 0));
    }

    private static long read() {
        return System.nanoTime() + System.currentTimeMillis();
    }

    /** public class NAME { public static long run() { return 42L; } } */
    private static byte[] plain(String name) {
        org.objectweb.asm.ClassWriter cw = new org.objectweb.asm.ClassWriter(org.objectweb.asm.ClassWriter.COMPUTE_MAXS);
        cw.visit(org.objectweb.asm.Opcodes.V11, org.objectweb.asm.Opcodes.ACC_PUBLIC, name, null, "java/lang/Object", null);
        org.objectweb.asm.MethodVisitor run = cw.visitMethod(org.objectweb.asm.Opcodes.ACC_PUBLIC
                | org.objectweb.asm.Opcodes.ACC_STATIC, "run", "()J", null, null);
        run.visitCode();
        run.visitLdcInsn(42L);
        run.visitInsn(org.objectweb.asm.Opcodes.LRETURN);
        run.visitMaxs(0, 0);
        run.visitEnd();
        cw.visitEnd();
        return cw.toByteArray();
    }
}
