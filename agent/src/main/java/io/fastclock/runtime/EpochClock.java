package io.fastclock.runtime;

/**
 * Epoch time at full resolution, in the shape of {@code jdk.internal.misc.VM.getNanoTimeAdjustment(J)J},
 * which is where java.time's system clock reads it ({@code Clock.currentInstant()} on JDK 17+,
 * {@code Clock$SystemClock.instant()} on JDK 11).
 */
public abstract class EpochClock {
    /** getNanoTimeAdjustment's limit: |seconds since offset| must stay under 2^32. */
    static final long MAX_DIFF_SECONDS = 1L << 32;
    static final long NANOS_PER_SECOND = 1_000_000_000L;

    /**
     * The current epoch time in ns minus {@code offsetSeconds} seconds, or -1 when that difference is
     * 2^32 seconds or more either way (the caller then re-seeds its offset and asks again).
     */
    public abstract long nanoTimeAdjustment(long offsetSeconds);

    /** Name of the backend: "system" or "tsc". */
    public abstract String name();

    /** getNanoTimeAdjustment's arithmetic on an epoch time in ns, as HotSpot does it. */
    static long adjustment(long epochNanos, long offsetSeconds) {
        long seconds = Math.floorDiv(epochNanos, NANOS_PER_SECOND);
        long nanos = Math.floorMod(epochNanos, NANOS_PER_SECOND);
        long diff = seconds - offsetSeconds;
        if (diff >= MAX_DIFF_SECONDS || diff <= -MAX_DIFF_SECONDS) {
            return -1;
        }
        return diff * NANOS_PER_SECOND + nanos;
    }
}
