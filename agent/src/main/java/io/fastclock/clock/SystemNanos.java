package io.fastclock.clock;

import io.fastclock.config.BackendNames;
import io.fastclock.runtime.NanosClock;

/** The JDK's own nanoTime. */
public final class SystemNanos extends NanosClock {
    @Override
    public long nanoTime() {
        return System.nanoTime();
    }

    @Override
    public String name() {
        return BackendNames.SYSTEM;
    }
}
