package io.fastclock.clock;

import io.fastclock.config.BackendNames;
import io.fastclock.runtime.MillisClock;

/** The JDK's own currentTimeMillis. */
public final class SystemMillis extends MillisClock {
    @Override
    public long currentTimeMillis() {
        return System.currentTimeMillis();
    }

    @Override
    public String name() {
        return BackendNames.SYSTEM;
    }
}
