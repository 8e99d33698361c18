package io.fastclock.runtime;

/**
 * The two entry points rewritten call sites link to (descriptor ()J, like the System methods they
 * replace). The backends are static finals: once JIT-compiled, a call costs what its backend costs.
 */
public final class FastClock {
    private static final LongClock MILLIS = ClockRegistry.sealMillis();
    private static final LongClock NANOS = ClockRegistry.sealNanos();

    private FastClock() {}

    public static long currentTimeMillis() {
        return MILLIS.read();
    }

    public static long nanoTime() {
        return NANOS.read();
    }

    public static String millisBackend() {
        return MILLIS.name();
    }

    public static String nanosBackend() {
        return NANOS.name();
    }
}
