package io.fastclock.runtime;

/**
 * The backends {@link FastClock} will use. Set once, before anything calls FastClock (the agent
 * installs its transformer only afterwards); FastClock copies them into static finals so that the
 * JIT sees a constant and inlines the backend.
 */
public final class ClockRegistry {
    private static volatile LongClock millis = new SystemMillis();
    private static volatile LongClock nanos = new SystemNanos();
    private static volatile boolean sealed;

    private ClockRegistry() {}

    /** @return false if FastClock was already initialised (its backends can no longer change) */
    public static synchronized boolean install(LongClock millisClock, LongClock nanosClock) {
        if (sealed) {
            return false;
        }
        millis = millisClock;
        nanos = nanosClock;
        return true;
    }

    static synchronized LongClock sealMillis() {
        sealed = true;
        return millis;
    }

    static synchronized LongClock sealNanos() {
        sealed = true;
        return nanos;
    }

    public static boolean isSealed() {
        return sealed;
    }
}
