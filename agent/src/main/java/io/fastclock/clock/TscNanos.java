package io.fastclock.clock;

import io.fastclock.config.BackendNames;
import io.fastclock.runtime.NanosClock;

/** nanoTime from the TSC clock. */
public final class TscNanos extends NanosClock {
    private final TscClock clock;

    public TscNanos(TscClock clock) {
        this.clock = clock;
    }

    @Override
    public long nanoTime() {
        return clock.nanoTime();
    }

    @Override
    public String name() {
        return BackendNames.TSC;
    }
}
