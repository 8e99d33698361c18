package io.fastclock.it.apps;

/**
 * Reads of a coarse currentTimeMillis, each weighed against a lag L (behind a reference read just
 * before it) and against the kernel's own CLOCK_REALTIME_COARSE read just before it (JnaClocks, which
 * no rewriting reaches):
 * <ul>
 *   <li>older than the kernel's coarse clock: the agent served a value the kernel had already left
 *       (a cached value, another clock). Nothing excuses one.</li>
 *   <li>past L: counted, and per kernel tick (each distinct value of the kernel's clock) the worst
 *       lag of the reads in it, so that nine ticks in ten can be set against L apart
 *       from the ticks that came late. A late tick leaves the kernel's clock, and so the reads that
 *       serve it, behind for as long as it is late, whatever L the agent stated at start-up.</li>
 * </ul>
 */
final class CoarseLagTally {
    /** Ticks whose worst read is this far behind or further share the last bucket. */
    private static final int LARGEST_BUCKET_MS = 1000;

    private final long lagMs;
    private final long[] ticksByWorstBehindMs = new long[LARGEST_BUCKET_MS + 1];
    long reads;
    long olderThanKernel;
    long beyondLag;
    long ticks;
    long ticksBeyondLag;
    long largestKernelStepMs;
    long kernelWorstBehindMs = Long.MIN_VALUE;
    long smallestStepMs = Long.MAX_VALUE;
    private long tickNs = Long.MIN_VALUE;
    private long tickWorstBehindMs;
    private long lastMillis = Long.MIN_VALUE;

    CoarseLagTally(long lagMs) {
        this.lagMs = lagMs;
    }

    /** One read: the reference before it, the kernel's coarse clock after that, then the read. */
    void read(long referenceBeforeMs, long kernelCoarseNs, long millis) {
        reads++;
        long kernelCoarseMs = Math.floorDiv(kernelCoarseNs, 1_000_000L);
        kernelWorstBehindMs = Math.max(kernelWorstBehindMs, referenceBeforeMs - kernelCoarseMs);
        if (millis < kernelCoarseMs) {
            olderThanKernel++;
        }
        long behindMs = referenceBeforeMs - millis;
        if (behindMs > lagMs) {
            beyondLag++;
        }
        if (kernelCoarseNs != tickNs) {
            if (tickNs != Long.MIN_VALUE) {
                endTick();
                largestKernelStepMs = Math.max(largestKernelStepMs, (kernelCoarseNs - tickNs) / 1_000_000L);
            }
            tickNs = kernelCoarseNs;
            tickWorstBehindMs = behindMs;
        } else {
            tickWorstBehindMs = Math.max(tickWorstBehindMs, behindMs);
        }
        if (lastMillis != Long.MIN_VALUE && millis > lastMillis) {
            smallestStepMs = Math.min(smallestStepMs, millis - lastMillis);
        }
        lastMillis = millis;
    }

    /** Closes the last tick; call once, after the last read. */
    void end() {
        if (tickNs != Long.MIN_VALUE) {
            endTick();
            tickNs = Long.MIN_VALUE;
        }
    }

    private void endTick() {
        ticks++;
        if (tickWorstBehindMs > lagMs) {
            ticksBeyondLag++;
        }
        ticksByWorstBehindMs[(int) Math.max(0, Math.min(LARGEST_BUCKET_MS, tickWorstBehindMs))]++;
    }

    /** The ninth decile over ticks of each tick's worst lag (nine ticks in ten are no further behind), in whole ms; -1 with no tick. */
    long ninthDecileTickWorstBehindMs() {
        long nineTenths = (ticks * 9 + 9) / 10;
        long seen = 0;
        for (int ms = 0; ms <= LARGEST_BUCKET_MS && ticks > 0; ms++) {
            seen += ticksByWorstBehindMs[ms];
            if (seen >= nineTenths) {
                return ms;
            }
        }
        return -1;
    }
}
