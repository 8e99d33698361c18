package io.fastclock.clock;

import io.fastclock.config.BackendNames;
import io.fastclock.runtime.LongClock;

/** Epoch millis from the TSC clock plus the CLOCK_REALTIME offset sampled at each re-anchor. */
public final class TscMillis extends LongClock {
    private final TscClock clock;

    public TscMillis(TscClock clock) {
        this.clock = clock;
    }

    @Override
    public long read() {
        return clock.currentTimeMillis();
    }

    @Override
    public String name() {
        return BackendNames.TSC;
    }
}
