package io.fastclock.clock;

import io.fastclock.config.BackendNames;
import io.fastclock.runtime.LongClock;

/** CLOCK_REALTIME_COARSE through JNI: never touches the clocksource hardware; one kernel tick of lag. */
public final class CoarseMillis extends LongClock {
    @Override
    public long read() {
        return NativeClocks.realtimeCoarseMillis();
    }

    @Override
    public String name() {
        return BackendNames.COARSE;
    }
}
