package io.fastclock.it.apps;

/**
 * Reads currentTimeMillis (rewritten by the agent) between two reads of the JDK's own clock
 * (ReferenceClocks: method handles, which call-site rewriting cannot reach), with the kernel's
 * CLOCK_REALTIME_COARSE read (JnaClocks) between the first of them and the read, for a while, and
 * tallies the reads (CoarseLagTally) against the lag L the agent states: the start line's
 * (fastclock.millisLagMs when the application starts) and the one published at the time of the read
 * (restated while running). After the agent moves currentTimeMillis back to the system clock, a read
 * must lie within the reference reads around it. Prints key=value lines; the test decides.
 *
 * <p>The classpath needs JNA (and, on JDK 24+, --enable-native-access=ALL-UNNAMED).
 *
 * args: milliseconds
 */
public final class CoarseLagApp {
    public static void main(String[] args) {
        AgentVerdict.await();
        long runNanos = Long.parseLong(args[0]) * 1_000_000L;
        long startLagMs = publishedLagMs();
        long lagMs = startLagMs;
        long largestPublishedLagMs = startLagMs;
        boolean onSystem = false;
        long worstBehindMs = Long.MIN_VALUE;
        long worstAheadMs = Long.MIN_VALUE;
        CoarseLagTally startLag = new CoarseLagTally(startLagMs);
        long beyondPublishedLag = 0;
        long readsOnSystem = 0;
        long outsideOnSystem = 0;
        long instantsOnSystem = 0;
        long instantApartOnSystem = 0;
        long end = ReferenceClocks.nanos() + runNanos;
        while (ReferenceClocks.nanos() < end) {
            for (int i = 0; i < 1000; i++) {
                long before = ReferenceClocks.millis();
                long kernelCoarseNs = JnaClocks.realtimeCoarseNanos();
                long millis = System.currentTimeMillis();
                long after = ReferenceClocks.millis();
                long behind = before - millis;
                worstBehindMs = Math.max(worstBehindMs, behind);
                worstAheadMs = Math.max(worstAheadMs, millis - after);
                startLag.read(before, kernelCoarseNs, millis);
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
        startLag.end();
        System.out.println("backends=" + ReferenceClocks.backends().replace(' ', ','));
        System.out.println("startLagMs=" + startLagMs);
        System.out.println("largestPublishedLagMs=" + largestPublishedLagMs);
        System.out.println("finalLagMs=" + publishedLagMs());
        System.out.println("reads=" + startLag.reads);
        System.out.println("worstBehindMs=" + worstBehindMs);
        System.out.println("worstAheadMs=" + worstAheadMs);
        System.out.println("smallestStepMs=" + startLag.smallestStepMs);
        System.out.println("readsOlderThanKernelCoarse=" + startLag.olderThanKernel);
        System.out.println("readsBeyondStartLag=" + startLag.beyondLag);
        System.out.println("ticks=" + startLag.ticks);
        System.out.println("ticksBeyondStartLag=" + startLag.ticksBeyondLag);
        System.out.println("ninthDecileTickWorstBehindMs=" + startLag.ninthDecileTickWorstBehindMs());
        System.out.println("largestKernelStepMs=" + startLag.largestKernelStepMs);
        System.out.println("kernelWorstBehindMs=" + startLag.kernelWorstBehindMs);
        System.out.println("readsBeyondPublishedLag=" + beyondPublishedLag);
        System.out.println("readsOnSystem=" + readsOnSystem);
        System.out.println("readsOutsideReferenceOnSystem=" + outsideOnSystem);
        System.out.println("instantsOnSystem=" + instantsOnSystem);
        System.out.println("instantApartOnSystem=" + instantApartOnSystem);
    }

    /** The agent's mirror of its state (a system property); -1 when absent. */
    private static long publishedLagMs() {
        String v = System.getProperty("fastclock.millisLagMs");
        return v == null ? -1 : Long.parseLong(v);
    }
}
