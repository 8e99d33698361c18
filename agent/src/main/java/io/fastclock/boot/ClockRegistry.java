package io.fastclock.boot;

import io.fastclock.runtime.EpochClock;
import io.fastclock.runtime.MillisClock;
import io.fastclock.runtime.NanosClock;
import io.fastclock.runtime.SystemClocks;

/**
 * Hands the agent's backends to {@link InstalledClocks}, once: the first {@link #install} wins, and
 * InstalledClocks copies the backends into static finals when it initialises (which the JIT treats as
 * constants and reflection cannot set). This package is exported to the agent's module alone
 * ({@link RuntimeAccess}), so only the agent can install.
 */
public final class ClockRegistry {
    private static MillisClock millis;
    private static NanosClock nanos;
    /** Null unless the agent hands java.time's epoch read over. */
    private static EpochClock epoch;
    private static boolean installed;
    private static boolean sealed;

    private ClockRegistry() {}

    /** @return false if backends were installed before or InstalledClocks is already initialised */
    public static synchronized boolean install(MillisClock millisClock, NanosClock nanosClock, EpochClock epochClock) {
        if (installed || sealed || millisClock == null || nanosClock == null) {
            return false;
        }
        installed = true;
        millis = millisClock;
        nanos = nanosClock;
        epoch = epochClock;
        return true;
    }

    static synchronized MillisClock sealMillis() {
        sealed = true;
        return millis != null ? millis : SystemClocks.MILLIS;
    }

    static synchronized NanosClock sealNanos() {
        sealed = true;
        return nanos != null ? nanos : SystemClocks.NANOS;
    }

    static synchronized EpochClock sealEpoch() {
        sealed = true;
        return epoch;
    }
}
