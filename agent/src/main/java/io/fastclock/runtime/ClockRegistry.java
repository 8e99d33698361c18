package io.fastclock.runtime;

/**
 * Hands the agent's backends to {@link FastClock}, once. The first {@link #install} wins and every
 * later one is refused, whoever calls it; FastClock then copies the backends into static finals
 * (which the JIT treats as constants and reflection cannot set).
 *
 * <p>This class is public because the agent's classes live in another module; application code
 * can call it too, and gains nothing: the agent installs right after defining this class, checks
 * with {@link #sealedAre} that FastClock sealed exactly its own backends, and rewrites no call site
 * otherwise, so a backend installed by anyone else serves only that caller's own explicit calls.
 */
public final class ClockRegistry {
    private static MillisClock millis;
    private static NanosClock nanos;
    /** Null unless the agent hands java.time's epoch read over (it then rewrites its callers). */
    private static EpochClock epoch;
    private static boolean installed;
    private static boolean sealed;

    private ClockRegistry() {}

    /** @return false if backends were installed before (by anyone) or FastClock is already initialised */
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

    /** @return false if backends were installed before (by anyone) or FastClock is already initialised */
    public static boolean install(MillisClock millisClock, NanosClock nanosClock) {
        return install(millisClock, nanosClock, null);
    }

    /** True when FastClock holds exactly these backends (the caller initialises FastClock first). */
    public static synchronized boolean sealedAre(MillisClock millisClock, NanosClock nanosClock, EpochClock epochClock) {
        return sealed && FastClock.sealed(millisClock, nanosClock, epochClock);
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
