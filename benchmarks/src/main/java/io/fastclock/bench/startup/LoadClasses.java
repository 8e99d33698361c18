package io.fastclock.bench.startup;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;

/**
 * Child of {@link io.fastclock.bench.StartupCost}: loads, links and calls once each generated class
 * gen.C0 .. gen.C(N-1) from the class path (each has a static method {@code long t()} that calls
 * System.currentTimeMillis()), and prints "load NANOS N OK CPU_NANOS": the time for all of them, and
 * the CPU time of this thread meanwhile (the transformer runs on the loading thread; the JIT's and
 * the GC's threads, and time this thread spent preempted, are not counted).
 */
public final class LoadClasses {
    private LoadClasses() {}

    public static void main(String[] args) throws Exception {
        int n = Integer.parseInt(args[0]);
        ClassLoader cl = LoadClasses.class.getClassLoader();
        long sum = 0;
        long cpu0 = threadCpuNanos();
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            Class<?> c = Class.forName("gen.C" + i, true, cl);
            Method m = c.getMethod("t");
            sum += (Long) m.invoke(null);
        }
        long t1 = System.nanoTime();
        long cpu1 = threadCpuNanos();
        System.out.println("load " + (t1 - t0) + " " + n + " " + (sum != 0) + " " + (cpu1 - cpu0));
    }

    /** This thread's time on a CPU, from the kernel's schedstat (its first field, nanoseconds). */
    private static long threadCpuNanos() throws IOException {
        String s = new String(Files.readAllBytes(Paths.get("/proc/thread-self/schedstat")), StandardCharsets.US_ASCII);
        return Long.parseLong(s.substring(0, s.indexOf(' ')));
    }
}
