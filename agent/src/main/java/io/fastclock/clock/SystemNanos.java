package io.fastclock.clock;

import io.fastclock.config.BackendNames;
import io.fastclock.runtime.LongClock;

/** The JDK's own nanoTime. */
public final class SystemNanos extends LongClock {
    @Override
    public long read() {
        return System.nanoTime();
    }

    @Override
    public String name() {
        return BackendNames.SYSTEM;
    }
}
