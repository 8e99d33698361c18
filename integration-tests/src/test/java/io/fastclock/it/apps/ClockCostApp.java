package io.fastclock.it.apps;

import java.time.Instant;
import java.util.function.LongSupplier;

/**
 * Nanoseconds per call of System.currentTimeMillis(), System.nanoTime() and Instant.now() through call sites
 * the agent rewrites when attached (the lambdas below): for the lab's figures (docs/GUEST-LAB.md), not a test.
 * Each clock: {@code rounds} rounds of about {@code roundMs} ms, timed with the JDK's own nanoTime through a method
 * handle; the best round is printed ({@code CLOCK.nsPerCall=...}), after the first round as a warm-up.
 *
 * <p>args: rounds roundMs
 */
public final class ClockCostApp {
    static volatile long sink;

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        long roundNs = (args.length > 1 ? Long.parseLong(args[1]) : 400) * 1_000_000L;
        System.out.println("backends=" + ReferenceClocks.backends().replace(' ', ','));
        measure("currentTimeMillis", () -> System.currentTimeMillis(), rounds, roundNs);
        measure("nanoTime", () -> System.nanoTime(), rounds, roundNs);
        measure("Instant.now", () -> Instant.now().getNano(), rounds, roundNs);
    }

    private static void measure(String name, LongSupplier clock, int rounds, long roundNs) {
        double best = Double.MAX_VALUE;
        for (int round = 0; round <= rounds; round++) {
            long calls = 0;
            long sum = 0;
            long start = ReferenceClocks.nanos();
            long end = start + roundNs;
            long now;
            do {
                for (int i = 0; i < 1000; i++) {
                    sum += clock.getAsLong();
                }
                calls += 1000;
            } while ((now = ReferenceClocks.nanos()) < end);
            sink = sum;
            if (round > 0) {
                best = Math.min(best, (double) (now - start) / calls);
            }
        }
        System.out.println(name + ".nsPerCall=" + String.format("%.1f", best));
    }
}
