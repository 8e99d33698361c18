package io.fastclock.boot;

import io.fastclock.runtime.EpochClock;
import io.fastclock.runtime.MillisClock;
import io.fastclock.runtime.NanosClock;

/**
 * The backends the switched FastClock calls ({@link ClockSwitch}), in static finals: once compiled,
 * a read costs what its backend costs. Each method has the descriptor of the FastClock method it
 * stands behind, so that the switch is a change of owner in FastClock's constant pool.
 */
public final class InstalledClocks {
    private static final MillisClock MILLIS = ClockRegistry.sealMillis();
    private static final NanosClock NANOS = ClockRegistry.sealNanos();
    private static final EpochClock EPOCH = ClockRegistry.sealEpoch();

    private InstalledClocks() {}

    public static long currentTimeMillis() {
        return MILLIS.currentTimeMillis();
    }

    public static long nanoTime() {
        return NANOS.nanoTime();
    }

    public static long nanoTimeAdjustment(long offsetSeconds) {
        return EPOCH.nanoTimeAdjustment(offsetSeconds);
    }

    public static String millisBackend() {
        return MILLIS.name();
    }

    public static String nanosBackend() {
        return NANOS.name();
    }

    public static String epochBackend() {
        return EPOCH == null ? null : EPOCH.name();
    }

    /** Whether these are exactly the backends installed (initialising this class seals them). */
    public static boolean hold(MillisClock millis, NanosClock nanos, EpochClock epoch) {
        return MILLIS == millis && NANOS == nanos && EPOCH == epoch;
    }
}
