package io.fastclock.measure;

import java.util.function.LongSupplier;

/**
 * ns per call of a clock as Java code sees it once JIT-compiled: warm-up, then the minimum over
 * several timed rounds. For the doctor and the demo, which can spend a second on it; never used at
 * agent start-up.
 */
public final class JavaCostMeter {
    private static volatile long sink;

    private JavaCostMeter() {}

    public static double nanosPerCall(LongSupplier clock, long roundNanos, int rounds) {
        long warmEnd = System.nanoTime() + roundNanos;
        while (System.nanoTime() < warmEnd) {
            loop(clock, 10_000);
        }
        double best = Double.MAX_VALUE;
        for (int r = 0; r < rounds; r++) {
            long calls = 0;
            long start = System.nanoTime();
            long end = start + roundNanos;
            long now;
            do {
                loop(clock, 10_000);
                calls += 10_000;
                now = System.nanoTime();
            } while (now < end);
            best = Math.min(best, (double) (now - start) / calls);
        }
        return best;
    }

    private static void loop(LongSupplier clock, int calls) {
        long sum = 0;
        for (int i = 0; i < calls; i++) {
            sum += clock.getAsLong();
        }
        sink += sum;
    }
}
