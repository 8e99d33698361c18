package io.fastclock.clock;

import io.fastclock.config.BackendNames;
import io.fastclock.runtime.EpochClock;

/**
 * Epoch time from the TSC clock: its nanoTime plus the CLOCK_REALTIME - CLOCK_MONOTONIC offset it
 * samples at every re-anchor (the two clocks share one NTP-slewed rate on Linux, so the offset
 * changes only when the wall clock is stepped). After the TSC clock falls back, the JDK's own read.
 */
public final class TscEpoch extends EpochClock {
    private final TscClock clock;
    private final EpochClock afterFallback;

    public TscEpoch(TscClock clock, EpochClock afterFallback) {
        this.clock = clock;
        this.afterFallback = afterFallback;
    }

    @Override
    public long nanoTimeAdjustment(long offsetSeconds) {
        long epochNanos = clock.epochNanos();
        if (epochNanos == TscClock.FALLEN_BACK) {
            return afterFallback.nanoTimeAdjustment(offsetSeconds);
        }
        return NanoTimeAdjustment.of(epochNanos, offsetSeconds);
    }

    @Override
    public String name() {
        return BackendNames.TSC;
    }
}
