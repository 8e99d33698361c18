package io.fastclock.clock;

import io.fastclock.config.BackendNames;
import io.fastclock.runtime.MillisClock;

/** Epoch millis from the TSC clock plus the CLOCK_REALTIME offset sampled at each re-anchor. */
public final class TscMillis extends MillisClock {
    private final TscClock clock;

    public TscMillis(TscClock clock) {
        this.clock = clock;
    }

    @Override
    public long currentTimeMillis() {
        return clock.currentTimeMillis();
    }

    @Override
    public String name() {
        return BackendNames.TSC;
    }
}
