package io.fastclock.clock;

import io.fastclock.config.BackendNames;
import io.fastclock.runtime.EpochClock;

/**
 * Epoch time from the TSC clock: its nanoTime plus the CLOCK_REALTIME - CLOCK_MONOTONIC offset it
 * samples at every re-anchor (the two clocks share one NTP-slewed rate on Linux, so the offset
 * changes only when the wall clock is stepped). After the TSC clock falls back, the JDK's own read.
 */
public final class TscEpoch extends EpochNanosClock {
    private final TscClock clock;

    public TscEpoch(TscClock clock, EpochClock afterFallback) {
        super(afterFallback);
        this.clock = clock;
    }

    @Override
    long epochNanos() {
        long epochNanos = clock.epochNanos();
        return epochNanos == TscClock.FALLEN_BACK ? UNREADABLE : epochNanos;
    }

    @Override
    public String name() {
        return BackendNames.TSC;
    }
}
