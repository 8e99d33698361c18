package io.fastclock.clock;

import io.fastclock.config.BackendNames;
import io.fastclock.runtime.EpochClock;

import java.lang.invoke.MethodHandle;

/**
 * java.time's epoch read from CLOCK_REALTIME_COARSE through JNA (instant=coarse with jna-coarse): the
 * same clock as the jna-coarse millis, reached through a handle on the JNA adapter's
 * {@code realtimeCoarseNanos()}, which answers -1 when the read fails (the JDK's own read then).
 */
public final class JnaCoarseEpoch extends EpochNanosClock {
    private final MethodHandle realtimeCoarseNanos;

    /** @param realtimeCoarseNanos a handle of type ()long */
    public JnaCoarseEpoch(MethodHandle realtimeCoarseNanos, EpochClock whenUnreadable) {
        super(whenUnreadable);
        this.realtimeCoarseNanos = realtimeCoarseNanos;
    }

    @Override
    long epochNanos() {
        long epochNanos;
        try {
            epochNanos = (long) realtimeCoarseNanos.invokeExact();
        } catch (Throwable t) {
            return UNREADABLE; // never into Instant.now() (host.failure-runs)
        }
        return epochNanos < 0 ? UNREADABLE : epochNanos;
    }

    @Override
    public String name() {
        return BackendNames.JNA_COARSE;
    }
}
