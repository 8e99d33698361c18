package io.fastclock.clock;

/** {@code jdk.internal.misc.VM.getNanoTimeAdjustment}'s arithmetic, as HotSpot does it. */
final class NanoTimeAdjustment {
    /** getNanoTimeAdjustment's limit: |seconds since offset| must stay under 2^32. */
    static final long MAX_DIFF_SECONDS = 1L << 32;
    static final long NANOS_PER_SECOND = 1_000_000_000L;

    private NanoTimeAdjustment() {}

    /** The epoch time in ns minus {@code offsetSeconds} seconds, or -1 beyond 2^32 s either way. */
    static long of(long epochNanos, long offsetSeconds) {
        long seconds = Math.floorDiv(epochNanos, NANOS_PER_SECOND);
        long nanos = Math.floorMod(epochNanos, NANOS_PER_SECOND);
        long diff = seconds - offsetSeconds;
        if (diff >= MAX_DIFF_SECONDS || diff <= -MAX_DIFF_SECONDS) {
            return -1;
        }
        return diff * NANOS_PER_SECOND + nanos;
    }
}
