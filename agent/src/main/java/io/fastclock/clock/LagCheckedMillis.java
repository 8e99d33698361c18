package io.fastclock.clock;

import io.fastclock.config.BackendNames;
import io.fastclock.runtime.MillisClock;

/**
 * A coarse currentTimeMillis (JNI or JNA) whose lag is watched while running (agent.CoarseLagWatch):
 * the watch moves it back to the system clock for good when the coarse clock falls further behind
 * CLOCK_REALTIME than its lag may grow (millis.lag in docs/CONTRACT.md). The switch cannot break the
 * millis bounds: the system clock is the reference itself, never behind it and never ahead.
 *
 * <p>The flag is a volatile read on every call (a plain load on x86), the price of being able to
 * switch a backend that FastClock holds in a static final.
 */
public final class LagCheckedMillis extends MillisClock {
    private final MillisClock coarse;
    private volatile boolean onSystemClock;

    public LagCheckedMillis(MillisClock coarse) {
        this.coarse = coarse;
    }

    @Override
    public long currentTimeMillis() {
        return onSystemClock ? System.currentTimeMillis() : coarse.currentTimeMillis();
    }

    @Override
    public String name() {
        return onSystemClock ? BackendNames.SYSTEM : coarse.name();
    }

    /** The coarse clock's own read, for the watch (whatever this clock serves now). */
    public long readCoarse() {
        return coarse.currentTimeMillis();
    }

    /** For good: there is no way back. */
    public void moveToSystemClock() {
        onSystemClock = true;
    }

    public boolean onSystemClock() {
        return onSystemClock;
    }
}
