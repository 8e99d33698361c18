package io.fastclock.clock;

import io.fastclock.config.BackendNames;
import io.fastclock.runtime.LongClock;

/** The JDK's own currentTimeMillis. */
public final class SystemMillis extends LongClock {
    @Override
    public long read() {
        return System.currentTimeMillis();
    }

    @Override
    public String name() {
        return BackendNames.SYSTEM;
    }
}
