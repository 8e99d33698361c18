package io.fastclock.runtime;

/**
 * Epoch time at full resolution, in the shape of {@code jdk.internal.misc.VM.getNanoTimeAdjustment(J)J},
 * which is where java.time's system clock reads it ({@code Clock.currentInstant()} on JDK 17+,
 * {@code Clock$SystemClock.instant()} on JDK 11).
 */
public abstract class EpochClock {
    /**
     * The current epoch time in ns minus {@code offsetSeconds} seconds, or -1 when that difference is
     * 2^32 seconds or more either way (the caller then re-seeds its offset and asks again).
     */
    public abstract long nanoTimeAdjustment(long offsetSeconds);

    /** Name of the backend: "system" or "tsc". */
    public abstract String name();
}
