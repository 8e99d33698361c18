package io.fastclock.clock;

import io.fastclock.config.BackendNames;
import io.fastclock.runtime.EpochClock;

/**
 * java.time's epoch read from CLOCK_REALTIME_COARSE through JNI (instant=coarse, where no TSC clock
 * runs): one kernel tick of resolution, the same clock and the same instant as {@link CoarseMillis},
 * so that Instant.now() and currentTimeMillis agree. Should the read ever fail, the JDK's own.
 */
public final class CoarseEpoch extends EpochNanosClock {
    public CoarseEpoch(EpochClock whenUnreadable) {
        super(whenUnreadable);
    }

    @Override
    long epochNanos() {
        long epochNanos = NativeClocks.clockGettime(NativeClocks.CLOCK_REALTIME_COARSE);
        return epochNanos < 0 ? UNREADABLE : epochNanos; // a negative errno
    }

    @Override
    public String name() {
        return BackendNames.COARSE;
    }
}
