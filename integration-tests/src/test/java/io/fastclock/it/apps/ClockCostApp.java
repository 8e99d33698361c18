package io.fastclock.it.apps;

import java.time.Instant;

/**
 * Nanoseconds per call of System.currentTimeMillis(), System.nanoTime() and Instant.now() through call sites
 * the agent rewrites when attached: for the lab's figures (docs/GUEST-LAB.md), not a test.
 * Each clock: {@code rounds} rounds of about {@code roundMs} ms (the clocks in turn), timed with the JDK's own nanoTime
 * through a method handle; the best round is printed ({@code CLOCK.nsPerCall=...}), after a first round as a warm-up.
 *
 * <p>args: rounds roundMs
 */
public final class ClockCostApp {
    static volatile long sink;

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        long roundNs = (args.length > 1 ? Long.parseLong(args[1]) : 400) * 1_000_000L;
        System.out.println("backends=" + ReferenceClocks.backends().replace(' ', ','));
        // One loop per clock (no shared lambda call site, whose dispatch would be measured too).
        double millis = Double.MAX_VALUE;
        double nanos = Double.MAX_VALUE;
        double instant = Double.MAX_VALUE;
        for (int round = 0; round <= rounds; round++) {
            // round 0 warms up
            double m = millisRound(roundNs);
            double n = nanosRound(roundNs);
            double i = instantRound(roundNs);
            if (round > 0) {
                millis = Math.min(millis, m);
                nanos = Math.min(nanos, n);
                instant = Math.min(instant, i);
            }
        }
        System.out.println("currentTimeMillis.nsPerCall=" + String.format("%.1f", millis));
        System.out.println("nanoTime.nsPerCall=" + String.format("%.1f", nanos));
        System.out.println("Instant.now.nsPerCall=" + String.format("%.1f", instant));
    }

    // One loop per clock, written out: a shared loop over a LongSupplier would time a megamorphic
    // call beside each read, which is not what an application's call site pays.
    private static double millisRound(long roundNs) {
        long calls = 0;
        long sum = 0;
        long start = ReferenceClocks.nanos();
        long now;
        do {
            for (int i = 0; i < 1000; i++) {
                sum += System.currentTimeMillis();
            }
            calls += 1000;
        } while ((now = ReferenceClocks.nanos()) < start + roundNs);
        sink = sum;
        return (double) (now - start) / calls;
    }

    private static double nanosRound(long roundNs) {
        long calls = 0;
        long sum = 0;
        long start = ReferenceClocks.nanos();
        long now;
        do {
            for (int i = 0; i < 1000; i++) {
                sum += System.nanoTime();
            }
            calls += 1000;
        } while ((now = ReferenceClocks.nanos()) < start + roundNs);
        sink = sum;
        return (double) (now - start) / calls;
    }

    private static double instantRound(long roundNs) {
        long calls = 0;
        long sum = 0;
        long start = ReferenceClocks.nanos();
        long now;
        do {
            for (int i = 0; i < 1000; i++) {
                sum += Instant.now().getNano();
            }
            calls += 1000;
        } while ((now = ReferenceClocks.nanos()) < start + roundNs);
        sink = sum;
        return (double) (now - start) / calls;
    }
}
