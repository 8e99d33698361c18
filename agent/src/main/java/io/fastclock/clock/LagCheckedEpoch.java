package io.fastclock.clock;

import io.fastclock.config.BackendNames;
import io.fastclock.runtime.EpochClock;

/**
 * java.time's coarse epoch read (instant=coarse) tied to the watched coarse currentTimeMillis: when
 * the watch moves currentTimeMillis back to the system clock, java.time goes back to the JDK's own
 * read with it, so that Instant.now() and currentTimeMillis keep agreeing (epoch.agrees-with-millis
 * in docs/CONTRACT.md) instead of a late coarse Instant beside a system-clock millis.
 */
public final class LagCheckedEpoch extends EpochClock {
    private final EpochClock coarse;
    private final EpochClock jdkRead;
    private final LagCheckedMillis millis;

    public LagCheckedEpoch(EpochClock coarse, EpochClock jdkRead, LagCheckedMillis millis) {
        this.coarse = coarse;
        this.jdkRead = jdkRead;
        this.millis = millis;
    }

    @Override
    public long nanoTimeAdjustment(long offsetSeconds) {
        return millis.onSystemClock() ? jdkRead.nanoTimeAdjustment(offsetSeconds) : coarse.nanoTimeAdjustment(offsetSeconds);
    }

    @Override
    public String name() {
        return millis.onSystemClock() ? BackendNames.SYSTEM : coarse.name();
    }
}
