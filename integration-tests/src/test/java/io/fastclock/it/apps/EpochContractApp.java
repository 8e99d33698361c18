package io.fastclock.it.apps;

import java.time.Instant;

/**
 * Checks Instant.now() against the epoch-time contract (docs/CONTRACT.md: epoch.bounds,
 * epoch.steps, epoch.agrees-with-millis) with CLOCK_REALTIME read through JNA as the reference (no rewriting touches it; under the
 * simulator its steps are the reference's too). Prints key=value lines:
 *
 * <ul>
 *   <li>bounds.outside: reads outside [before - 1 ms, after + 1 ms]; bounds.worstEarlyNs /
 *       bounds.worstLateNs: how far below before / above after the worst read was (0 if never);
 *   <li>resolution.notWholeMillis: of resolution.reads successive reads, those whose nano-of-second
 *       is not a multiple of 1 ms; resolution.minStepNs: the smallest difference between two
 *       successive distinct values; resolution.stepsUnder1us: how many were under 1 us;
 *   <li>agreement.minDiffMs / agreement.maxDiffMs: System.currentTimeMillis() read just after
 *       Instant.now(), minus its epoch millis (the max less the ms the two reads took);
 *   <li>date.minDiffMs / date.maxDiffMs: the same for new Date().getTime();
 *   <li>steps (when seconds > 0): refSteps, stepNFollowMs (from the reference showing step N to
 *       Instant.now() being back within 1 ms of it), longestOffMs.
 * </ul>
 *
 * args: reads stepSeconds
 */
public final class EpochContractApp {
    static final long TOLERANCE_NS = 1_000_000L;

    public static void main(String[] args) {
        AgentVerdict.await();
        int reads = Integer.parseInt(args[0]);
        double stepSeconds = Double.parseDouble(args[1]);
        System.out.println("epoch=" + JTimeCoverageApp.epochBackend());
        System.out.println("backends=" + ReferenceClocks.backends().replace(' ', ','));
        // Steps first: the other phases must not straddle a step (across one, two successive reads
        // of any wall clock differ by the step).
        if (stepSeconds > 0) {
            steps(stepSeconds);
        }
        bounds(reads);
        resolution(reads);
        agreement(reads);
        dateAgreement(reads);
        System.out.println("done=ok");
    }

    static long nanos(Instant i) {
        return i.getEpochSecond() * 1_000_000_000L + i.getNano();
    }

    private static void bounds(int reads) {
        long outside = 0;
        long worstEarly = 0;
        long worstLate = 0;
        for (int i = 0; i < reads; i++) {
            long before = JnaClocks.realtimeNanos();
            long now = nanos(Instant.now());
            long after = JnaClocks.realtimeNanos();
            if (now < before - TOLERANCE_NS || now > after + TOLERANCE_NS) {
                outside++;
            }
            worstEarly = Math.max(worstEarly, before - now);
            worstLate = Math.max(worstLate, now - after);
        }
        System.out.println("bounds.reads=" + reads);
        System.out.println("bounds.outside=" + outside);
        System.out.println("bounds.worstEarlyNs=" + worstEarly);
        System.out.println("bounds.worstLateNs=" + worstLate);
    }

    private static void resolution(int reads) {
        long[] values = new long[reads];
        for (int i = 0; i < reads; i++) {
            values[i] = nanos(Instant.now());
        }
        long notWholeMillis = 0;
        long minStep = Long.MAX_VALUE;
        long under1us = 0;
        long backwards = 0;
        for (int i = 0; i < reads; i++) {
            if (values[i] % 1_000_000L != 0) {
                notWholeMillis++;
            }
            if (i > 0) {
                long step = values[i] - values[i - 1];
                if (step < 0) {
                    backwards++;
                } else if (step > 0) {
                    minStep = Math.min(minStep, step);
                    if (step < 1_000) {
                        under1us++;
                    }
                }
            }
        }
        System.out.println("resolution.reads=" + reads);
        System.out.println("resolution.notWholeMillis=" + notWholeMillis);
        System.out.println("resolution.minStepNs=" + minStep);
        System.out.println("resolution.stepsUnder1us=" + under1us);
        System.out.println("resolution.backwards=" + backwards);
    }

    /**
     * The difference, less the time the two reads took (bracketed by the JDK's own nanoTime through
     * a method handle), so that a preemption between them is not taken for disagreement.
     */
    private static void agreement(int reads) {
        long beyond = 0;
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        long maxRaw = Long.MIN_VALUE;
        for (int i = 0; i < reads; i++) {
            long start = ReferenceClocks.nanos();
            long instantMillis = Instant.now().toEpochMilli();
            long millis = System.currentTimeMillis();
            long tookMs = (ReferenceClocks.nanos() - start + 999_999L) / 1_000_000L;
            long diff = millis - instantMillis;
            min = Math.min(min, diff);
            max = Math.max(max, diff - tookMs);
            maxRaw = Math.max(maxRaw, diff);
            if (beyondLag(diff, tookMs)) {
                beyond++;
            }
        }
        System.out.println("agreement.beyondLag=" + beyond);
        System.out.println("agreement.minDiffMs=" + min);
        System.out.println("agreement.maxDiffMs=" + max);
        System.out.println("agreement.maxDiffNotLessTheReadTimeMs=" + maxRaw);
    }

    /** While the simulator steps the wall clock: how long Instant.now() takes to follow each step. */
    private static void steps(double seconds) {
        long start = JnaClocks.monotonicNanos();
        long end = start + (long) (seconds * 1e9);
        long previousRef = JnaClocks.realtimeNanos();
        long offSince = -1;
        long longestOff = 0;
        java.util.List<long[]> steps = new java.util.ArrayList<>(); // {seenAt, delta, followedAfterMs}
        long now;
        while ((now = JnaClocks.monotonicNanos()) < end) {
            long before = JnaClocks.realtimeNanos();
            long fast = nanos(Instant.now());
            long after = JnaClocks.realtimeNanos();
            long jump = Math.abs(before - previousRef) > Math.abs(after - before) ? before - previousRef : after - before;
            previousRef = after;
            boolean stepInThisRead = Math.abs(jump) > 1_000_000_000L;
            if (stepInThisRead) {
                steps.add(new long[] {now, jump / 1_000_000L, -1});
            }
            boolean off = fast < before - TOLERANCE_NS || fast > after + TOLERANCE_NS;
            if (off) {
                if (offSince < 0) {
                    offSince = now;
                }
                longestOff = Math.max(longestOff, (now - offSince) / 1_000_000L);
            } else {
                offSince = -1;
                if (!steps.isEmpty() && !stepInThisRead) {
                    long[] last = steps.get(steps.size() - 1);
                    if (last[2] < 0) {
                        last[2] = (now - last[0]) / 1_000_000L;
                    }
                }
            }
        }
        if (offSince >= 0) {
            longestOff = Math.max(longestOff, (end - offSince) / 1_000_000L);
        }
        System.out.println("refSteps=" + steps.size());
        for (int i = 0; i < steps.size(); i++) {
            System.out.println("step" + i + "DeltaMs=" + steps.get(i)[1]);
            System.out.println("step" + i + "FollowMs=" + steps.get(i)[2]);
        }
        System.out.println("longestOffMs=" + longestOff);
    }

    /** As {@link #agreement}, for new Date() (which the JDK stamps from its own currentTimeMillis). */
    private static void dateAgreement(int reads) {
        long beyond = 0;
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (int i = 0; i < reads; i++) {
            long start = ReferenceClocks.nanos();
            long dateMillis = new java.util.Date().getTime();
            long millis = System.currentTimeMillis();
            long tookMs = (ReferenceClocks.nanos() - start + 999_999L) / 1_000_000L;
            long diff = millis - dateMillis;
            min = Math.min(min, diff);
            max = Math.max(max, diff - tookMs);
            if (beyondLag(diff, tookMs)) {
                beyond++;
            }
        }
        System.out.println("date.beyondLag=" + beyond);
        System.out.println("date.minDiffMs=" + min);
        System.out.println("date.maxDiffMs=" + max);
    }

    /** The L the agent stated at start (its informational mirror), at least 1 ms (the JDK's clocks agree to that). */
    private static final long STATED_LAG_MS = Math.max(1, Long.getLong("fastclock.millisLagMs", 0L));

    /** Whether a pair differed by more than the L stated at start. */
    private static boolean beyondLag(long diffMs, long tookMs) {
        return diffMs < -STATED_LAG_MS || diffMs - tookMs > STATED_LAG_MS;
    }
}
