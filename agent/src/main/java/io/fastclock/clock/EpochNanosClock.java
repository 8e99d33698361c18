package io.fastclock.clock;

import io.fastclock.runtime.EpochClock;

/**
 * java.time's epoch read from a clock that gives epoch nanoseconds: the one shape of
 * {@code nanoTimeAdjustment} for every such clock, and the one rule where the clock cannot answer
 * (its read failed, or the TSC clock fell back): the question goes to the clock given instead, the
 * JDK's own read, and never gets a made-up time.
 */
abstract class EpochNanosClock extends EpochClock {
    /** What {@link #epochNanos} answers where it has no time (TscClock.FALLEN_BACK too). */
    static final long UNREADABLE = Long.MIN_VALUE;

    private final EpochClock otherwise;

    EpochNanosClock(EpochClock otherwise) {
        this.otherwise = otherwise;
    }

    /** Epoch time in ns (CLOCK_REALTIME's scale), or {@link #UNREADABLE}. */
    abstract long epochNanos();

    @Override
    public final long nanoTimeAdjustment(long offsetSeconds) {
        long epochNanos = epochNanos();
        return epochNanos == UNREADABLE ? otherwise.nanoTimeAdjustment(offsetSeconds)
                : NanoTimeAdjustment.of(epochNanos, offsetSeconds);
    }
}
