package io.fastclock.it.apps;

/**
 * Reads currentTimeMillis (rewritten by the agent) between two reads of the JDK's own clock
 * (ReferenceClocks: method handles, which call-site rewriting cannot reach), for a while, and counts
 * the reads outside the lag L the agent states: the start line's (fastclock.millisLagMs when the
 * application starts) and the one published at the time of the read (restated while running). After
 * the agent moves currentTimeMillis back to the system clock, a read must lie within the reference
 * reads around it. Prints key=value lines; the test decides.
 *
 * <p>A late kernel tick: the coarse clock the agent reads stands still past its tick and then moves
 * by the time it missed. Reads past the start line's L that end in such a step (at least twice the
 * smallest step seen, at most {@value #LATE_TICK_BOUND_MS} ms) are counted apart
 * ({@code readsBeyondStartLagInLateTicks}): the kernel's clock was late, whatever L the agent stated.
 * Reads past L between regular steps (an L stated too small) stay in {@code readsBeyondStartLag}, and so
 * do those ending in a larger step (a clock frozen or off by a unit).
 *
 * args: milliseconds
 */
public final class CoarseLagApp {
    /** The largest step still taken for a late tick; a larger one counts against L. */
    public static final long LATE_TICK_BOUND_MS = 50;

    public static void main(String[] args) {
        long runNanos = Long.parseLong(args[0]) * 1_000_000L;
        long startLagMs = publishedLagMs();
        long lagMs = startLagMs;
        long largestPublishedLagMs = startLagMs;
        boolean onSystem = false;
        long reads = 0;
        long worstBehindMs = Long.MIN_VALUE;
        long worstAheadMs = Long.MIN_VALUE;
        BeyondLagTally beyondStartLag = new BeyondLagTally(startLagMs);
        long beyondPublishedLag = 0;
        long readsOnSystem = 0;
        long outsideOnSystem = 0;
        long instantsOnSystem = 0;
        long instantApartOnSystem = 0;
        long end = ReferenceClocks.nanos() + runNanos;
        while (ReferenceClocks.nanos() < end) {
            for (int i = 0; i < 1000; i++) {
                long before = ReferenceClocks.millis();
                long millis = System.currentTimeMillis();
                long after = ReferenceClocks.millis();
                long behind = before - millis;
                reads++;
                worstBehindMs = Math.max(worstBehindMs, behind);
                worstAheadMs = Math.max(worstAheadMs, millis - after);
                beyondStartLag.read(millis, behind);
                if (behind > lagMs) {
                    beyondPublishedLag++;
                }
                if (onSystem) {
                    readsOnSystem++;
                    if (millis < before || millis > after) {
                        outsideOnSystem++;
                    }
                }
            }
            if (onSystem) {
                // java.time must follow currentTimeMillis off the coarse clock (instant=coarse): an
                // Instant read after a reference read may not trail it by more than the start line's L
                // (descheduling between the reads only makes the reference earlier, never later; the
                // coarse clock left behind is tens of ms late).
                for (int i = 0; i < 1000; i++) {
                    long before = ReferenceClocks.millis();
                    long instantMs = java.time.Instant.now().toEpochMilli();
                    instantsOnSystem++;
                    if (before - instantMs > startLagMs) {
                        instantApartOnSystem++;
                    }
                }
            }
            lagMs = publishedLagMs();
            largestPublishedLagMs = Math.max(largestPublishedLagMs, lagMs);
            onSystem = onSystem || ReferenceClocks.backends().startsWith("millis=system");
        }
        beyondStartLag.end();
        System.out.println("backends=" + ReferenceClocks.backends().replace(' ', ','));
        System.out.println("startLagMs=" + startLagMs);
        System.out.println("largestPublishedLagMs=" + largestPublishedLagMs);
        System.out.println("finalLagMs=" + publishedLagMs());
        System.out.println("reads=" + reads);
        System.out.println("worstBehindMs=" + worstBehindMs);
        System.out.println("worstAheadMs=" + worstAheadMs);
        System.out.println("readsBeyondStartLag=" + beyondStartLag.beyond);
        System.out.println("readsBeyondStartLagInLateTicks=" + beyondStartLag.beyondInLateTicks);
        System.out.println("lateTickSteps=" + beyondStartLag.lateTickSteps);
        System.out.println("largestLateTickStepMs=" + beyondStartLag.largestLateTickStepMs);
        System.out.println("readsBeyondPublishedLag=" + beyondPublishedLag);
        System.out.println("readsOnSystem=" + readsOnSystem);
        System.out.println("readsOutsideReferenceOnSystem=" + outsideOnSystem);
        System.out.println("instantsOnSystem=" + instantsOnSystem);
        System.out.println("instantApartOnSystem=" + instantApartOnSystem);
    }

    /**
     * Reads past a lag, each run of them classed by the step of the clock that ends it: a late
     * tick's (counted apart) or any other (counted against the lag). See the class comment.
     */
    static final class BeyondLagTally {
        private final long lagMs;
        long beyond;
        long beyondInLateTicks;
        long lateTickSteps;
        long largestLateTickStepMs;
        private long pending;
        private long lastMillis = Long.MIN_VALUE;
        private long smallestStepMs;

        BeyondLagTally(long lagMs) {
            this.lagMs = lagMs;
        }

        void read(long millis, long behindMs) {
            if (millis != lastMillis) {
                long step = millis - lastMillis;
                boolean stepped = lastMillis != Long.MIN_VALUE && step > 0;
                if (stepped && smallestStepMs > 0 && step >= 2 * smallestStepMs && step <= LATE_TICK_BOUND_MS) {
                    lateTickSteps++;
                    largestLateTickStepMs = Math.max(largestLateTickStepMs, step);
                    beyondInLateTicks += pending;
                } else {
                    beyond += pending;
                }
                if (stepped) {
                    smallestStepMs = smallestStepMs == 0 ? step : Math.min(smallestStepMs, step);
                }
                pending = 0;
                lastMillis = millis;
            }
            if (behindMs > lagMs) {
                pending++;
            }
        }

        /** Reads past the lag that no step ended: counted against it. */
        void end() {
            beyond += pending;
            pending = 0;
        }
    }

    /** The agent's mirror of its state (a system property); -1 when absent. */
    private static long publishedLagMs() {
        String v = System.getProperty("fastclock.millisLagMs");
        return v == null ? -1 : Long.parseLong(v);
    }
}
