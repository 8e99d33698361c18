package io.fastclock.it.apps.theft;

/**
 * Template of a shadow {@code io.fastclock.runtime.FastClock} (TheftIT renames it): the entry points
 * rewritten call sites link to, by name and descriptor, serving values no clock gives.
 */
public final class ShadowFastClock {
    public static final long NANOS = 42;

    private ShadowFastClock() {}

    public static long currentTimeMillis() {
        return 0;
    }

    public static long nanoTime() {
        return NANOS;
    }

    public static long nanoTimeAdjustment(long offsetSeconds) {
        return 0;
    }
}
