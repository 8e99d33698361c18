package io.fastclock.clock;

/** A TSC clock on a counter the test moves by hand, for tests outside this package. */
public final class ManualTscClocks {
    private ManualTscClocks() {}

    /** A clock whose calibration matches its counter (1/3 ns per tick), warnings dropped. */
    public static TscClock clock() {
        TscClockTest.ManualTicks source = new TscClockTest.ManualTicks(1 / 3.0);
        TscCalibration calibration = TscCalibrations.of(1 / 3.0, source.ticks, source.monotonic(),
                source.monotonic() + source.realtimeOffset);
        return new TscClock(source, calibration, new TscClock.Tuning(), TscTrust.ALWAYS, message -> { });
    }

    /**
     * A clock with a past in which every figure it reports differs from the others and from zero:
     * calibrated 100 ppm slow, re-anchored three times (an error and a rate change at each), then
     * read twice long after its segment ended with no re-anchor (two late extensions). Nothing
     * moves its counter afterwards, so its figures stay as they are until the test moves it.
     */
    public static TscClock clockWithHistory() {
        TscClockTest.ManualTicks source = new TscClockTest.ManualTicks(1 / 3.0);
        TscCalibration calibration = TscCalibrations.of(1 / 3.0 * (1 - 100e-6), source.ticks, source.monotonic(),
                source.monotonic() + source.realtimeOffset);
        TscClock clock = new TscClock(source, calibration, new TscClock.Tuning(), TscTrust.ALWAYS, message -> { });
        for (long step : new long[] {200_000_000L, 200_000_000L, 130_000_000L}) {
            source.advanceNanos(step);
            clock.anchorRound();
        }
        for (int i = 0; i < 2; i++) {
            source.advanceNanos(1_000_000_000L);
            clock.nanoTime();
        }
        return clock;
    }
}
