package io.fastclock.clock;

import io.fastclock.config.BackendNames;
import io.fastclock.runtime.EpochClock;

import java.lang.invoke.MethodHandle;

/**
 * java.time's epoch read from CLOCK_REALTIME_COARSE through JNA (instant=coarse with jna-coarse): the
 * same clock as the jna-coarse millis, reached through a handle on the JNA adapter's
 * {@code realtimeCoarseNanos()}, which answers -1 when the read fails (the JDK's own read then).
 */
public final class JnaCoarseEpoch extends EpochClock {
    private final MethodHandle realtimeCoarseNanos;
    private final EpochClock whenUnreadable;

    /** @param realtimeCoarseNanos a handle of type ()long */
    public JnaCoarseEpoch(MethodHandle realtimeCoarseNanos, EpochClock whenUnreadable) {
        this.realtimeCoarseNanos = realtimeCoarseNanos;
        this.whenUnreadable = whenUnreadable;
    }

    @Override
    public long nanoTimeAdjustment(long offsetSeconds) {
        long epochNanos;
        try {
            epochNanos = (long) realtimeCoarseNanos.invokeExact();
        } catch (Throwable t) {
            // Never into Instant.now() (host.failure-runs): the JDK's own read instead.
            return whenUnreadable.nanoTimeAdjustment(offsetSeconds);
        }
        if (epochNanos < 0) {
            return whenUnreadable.nanoTimeAdjustment(offsetSeconds);
        }
        return NanoTimeAdjustment.of(epochNanos, offsetSeconds);
    }

    @Override
    public String name() {
        return BackendNames.JNA_COARSE;
    }
}
