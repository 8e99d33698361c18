package io.fastclock.clock;

import io.fastclock.config.BackendNames;
import io.fastclock.runtime.NanosClock;

/**
 * CLOCK_MONOTONIC_COARSE through JNI. Same origin and rate as System.nanoTime but it advances
 * once per kernel tick, so it is used only when nanos=coarse is asked for by name.
 */
public final class CoarseNanos extends NanosClock {
    @Override
    public long nanoTime() {
        return NativeClocks.monotonicCoarseNanos();
    }

    @Override
    public String name() {
        return BackendNames.COARSE;
    }
}
