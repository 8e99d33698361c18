package io.fastclock.it.apps;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Measures the clock contract through rewritten call sites (System.currentTimeMillis() and
 * System.nanoTime() below are rewritten by the agent) against the JDK's clocks reached through
 * method handles. Prints key=value lines; the test decides.
 *
 * args: seconds threads
 */
public final class ContractApp {
    public static void main(String[] args) throws Exception {
        AgentVerdict.await();
        double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 1.5;
        int threads = args.length > 1 ? Integer.parseInt(args[1]) : 4;
        long runNanos = (long) (seconds * 1e9);
        System.out.println("backends=" + ReferenceClocks.backends().replace(' ', ','));

        millisBounds(runNanos);
        nanosAgainstReference(runNanos);
        nanosRate(runNanos);
        nanosMonotonicAcrossThreads(runNanos, threads);
        resolution();
    }

    /** Every millis read within [reference before - lag, reference after + 1]. */
    static void millisBounds(long runNanos) {
        long worstBehind = 0;
        long worstAhead = Long.MIN_VALUE;
        long reads = 0;
        // The L the agent stated at start (its informational mirror); -1 without an active agent.
        long statedLagMs = Long.getLong("fastclock.millisLagMs", -1L);
        long beyondStatedLag = 0;
        long end = ReferenceClocks.nanos() + runNanos;
        while (ReferenceClocks.nanos() < end) {
            long before = ReferenceClocks.millis();
            long fast = System.currentTimeMillis();
            long after = ReferenceClocks.millis();
            if (statedLagMs >= 0 && before - fast > statedLagMs) {
                beyondStatedLag++;
            }
            worstBehind = Math.max(worstBehind, before - fast);
            worstAhead = Math.max(worstAhead, fast - after);
            reads++;
        }
        System.out.println("millis.reads=" + reads);
        System.out.println("millis.worstBehindMs=" + worstBehind);
        System.out.println("millis.beyondStatedLag=" + beyondStatedLag);
        System.out.println("millis.worstAheadMs=" + worstAhead);
    }

    /** Distance from System.nanoTime: every fast read within [before - x, after + x]. */
    static void nanosAgainstReference(long runNanos) {
        long worst = 0;
        long previous = Long.MIN_VALUE;
        long backwards = 0;
        long reads = 0;
        long end = ReferenceClocks.nanos() + runNanos;
        long before;
        while ((before = ReferenceClocks.nanos()) < end) {
            long fast = System.nanoTime();
            long after = ReferenceClocks.nanos();
            long deviation = fast < before ? before - fast : (fast > after ? fast - after : 0);
            worst = Math.max(worst, deviation);
            if (fast < previous) {
                backwards++;
            }
            previous = fast;
            reads++;
        }
        System.out.println("nanos.reads=" + reads);
        System.out.println("nanos.worstDeviationNs=" + worst);
        System.out.println("nanos.backwardsSingleThread=" + backwards);
    }

    /** Rate of the fast clock against System.nanoTime over the run, from narrow-window samples. */
    static void nanosRate(long runNanos) throws InterruptedException {
        long[] start = ReferenceClocks.narrowSample();
        Thread.sleep(Math.max(1000, runNanos / 1_000_000));
        long[] end = ReferenceClocks.narrowSample();
        double rate = (double) (end[1] - start[1]) / (end[0] - start[0]);
        System.out.println("nanos.rateErrorPpm=" + String.format("%.3f", (rate - 1) * 1e6));
        System.out.println("nanos.rateIntervalMs=" + (end[0] - start[0]) / 1_000_000);
    }

    /** A value published by one thread is never greater than a later read in another. */
    static void nanosMonotonicAcrossThreads(long runNanos, int threadCount) throws InterruptedException {
        AtomicLong published = new AtomicLong(Long.MIN_VALUE);
        AtomicLong violations = new AtomicLong();
        AtomicLong reads = new AtomicLong();
        long end = ReferenceClocks.nanos() + runNanos;
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < threadCount; t++) {
            Thread thread = new Thread(() -> {
                long local = 0;
                while (ReferenceClocks.nanos() < end) {
                    for (int i = 0; i < 1000; i++) {
                        long seen = published.get();
                        long now = System.nanoTime();
                        if (now < seen) {
                            violations.incrementAndGet();
                        }
                        long current;
                        while ((current = published.get()) < now && !published.compareAndSet(current, now)) {
                            // retry
                        }
                    }
                    local += 1000;
                }
                reads.addAndGet(local);
            });
            threads.add(thread);
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        System.out.println("nanos.crossThreadReads=" + reads.get());
        System.out.println("nanos.backwardsAcrossThreads=" + violations.get());
    }

    /** Smallest positive step seen between consecutive reads. */
    static void resolution() {
        long smallestNanoStep = Long.MAX_VALUE;
        long previous = System.nanoTime();
        for (int i = 0; i < 2_000_000; i++) {
            long now = System.nanoTime();
            if (now > previous) {
                smallestNanoStep = Math.min(smallestNanoStep, now - previous);
            }
            previous = now;
        }
        System.out.println("nanos.smallestStepNs=" + smallestNanoStep);
        long smallestMilliStep = Long.MAX_VALUE;
        long previousMillis = System.currentTimeMillis();
        long end = ReferenceClocks.nanos() + 200_000_000L;
        while (ReferenceClocks.nanos() < end) {
            long now = System.currentTimeMillis();
            if (now > previousMillis) {
                smallestMilliStep = Math.min(smallestMilliStep, now - previousMillis);
            }
            previousMillis = now;
        }
        System.out.println("millis.smallestStepMs=" + smallestMilliStep);
    }
}
