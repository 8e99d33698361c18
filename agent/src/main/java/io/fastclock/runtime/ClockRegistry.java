package io.fastclock.runtime;

/**
 * The backends {@link FastClock} will use. Set once, before anything calls FastClock (the agent
 * installs its transformer only afterwards); FastClock copies them into static finals so that the
 * JIT sees a constant and inlines the backend.
 */
public final class ClockRegistry {
    private static volatile LongClock millis = new SystemMillis();
    private static volatile LongClock nanos = new SystemNanos();
    /** Null unless the agent hands java.time's epoch read over (it then rewrites its callers). */
    private static volatile EpochClock epoch;
    private static volatile boolean sealed;

    private ClockRegistry() {}

    /** @return false if FastClock was already initialised (its backends can no longer change) */
    public static synchronized boolean install(LongClock millisClock, LongClock nanosClock, EpochClock epochClock) {
        if (sealed) {
            return false;
        }
        millis = millisClock;
        nanos = nanosClock;
        epoch = epochClock;
        return true;
    }

    /** @return false if FastClock was already initialised (its backends can no longer change) */
    public static boolean install(LongClock millisClock, LongClock nanosClock) {
        return install(millisClock, nanosClock, null);
    }

    static synchronized LongClock sealMillis() {
        sealed = true;
        return millis;
    }

    static synchronized LongClock sealNanos() {
        sealed = true;
        return nanos;
    }

    static synchronized EpochClock sealEpoch() {
        sealed = true;
        return epoch;
    }

    public static boolean isSealed() {
        return sealed;
    }
}
