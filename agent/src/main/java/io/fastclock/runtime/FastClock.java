package io.fastclock.runtime;

/**
 * The entry points rewritten call sites link to, each with the descriptor of the JDK method it
 * replaces (see io.fastclock.rewrite.ClockReplacements). The backends are static finals: once
 * JIT-compiled, a call costs what its backend costs.
 */
public final class FastClock {
    private static final MillisClock MILLIS = ClockRegistry.sealMillis();
    private static final NanosClock NANOS = ClockRegistry.sealNanos();
    private static final EpochClock EPOCH = ClockRegistry.sealEpoch();

    private FastClock() {}

    /** Replaces {@code System.currentTimeMillis()}. */
    public static long currentTimeMillis() {
        return MILLIS.currentTimeMillis();
    }

    /** Replaces {@code System.nanoTime()}. */
    public static long nanoTime() {
        return NANOS.nanoTime();
    }

    /** Replaces {@code jdk.internal.misc.VM.getNanoTimeAdjustment(long)} inside java.time. */
    public static long nanoTimeAdjustment(long offsetSeconds) {
        return EPOCH.nanoTimeAdjustment(offsetSeconds);
    }

    /** Identity check for {@link ClockRegistry#sealedAre}. */
    static boolean sealed(MillisClock millis, NanosClock nanos, EpochClock epoch) {
        return MILLIS == millis && NANOS == nanos && EPOCH == epoch;
    }

    /** Read-only: the name of the backend behind currentTimeMillis. */
    public static String millisBackend() {
        return MILLIS.name();
    }

    /** Read-only: the name of the backend behind nanoTime. */
    public static String nanosBackend() {
        return NANOS.name();
    }

    /** Null when java.time's epoch read was never handed to fastclock. */
    public static String epochBackend() {
        return EPOCH == null ? null : EPOCH.name();
    }
}
