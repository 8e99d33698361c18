package io.fastclock.bench.startup;

import java.lang.reflect.Method;

/**
 * Child of {@link io.fastclock.bench.StartupCost}: loads, links and calls once each generated class
 * gen.C0 .. gen.C(N-1) from the class path (each has a static method {@code long t()} that calls
 * System.currentTimeMillis()), and prints "load NANOS N" (the time for all of them).
 */
public final class LoadClasses {
    private LoadClasses() {}

    public static void main(String[] args) throws Exception {
        int n = Integer.parseInt(args[0]);
        ClassLoader cl = LoadClasses.class.getClassLoader();
        long sum = 0;
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            Class<?> c = Class.forName("gen.C" + i, true, cl);
            Method m = c.getMethod("t");
            sum += (Long) m.invoke(null);
        }
        long t1 = System.nanoTime();
        System.out.println("load " + (t1 - t0) + " " + n + " " + (sum != 0));
    }
}
