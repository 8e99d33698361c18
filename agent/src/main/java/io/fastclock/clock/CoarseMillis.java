package io.fastclock.clock;

import io.fastclock.config.BackendNames;
import io.fastclock.runtime.MillisClock;

/** CLOCK_REALTIME_COARSE through JNI: never touches the clocksource hardware; one kernel tick of lag. */
public final class CoarseMillis extends MillisClock {
    @Override
    public long currentTimeMillis() {
        return NativeClocks.realtimeCoarseMillis();
    }

    @Override
    public String name() {
        return BackendNames.COARSE;
    }
}
