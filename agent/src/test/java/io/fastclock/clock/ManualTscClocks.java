package io.fastclock.clock;

/** A TSC clock on a counter the test moves by hand, for tests outside this package. */
public final class ManualTscClocks {
    private ManualTscClocks() {}

    /** A clock whose calibration matches its counter (1/3 ns per tick), warnings dropped. */
    public static TscClock clock() {
        TscClockTest.ManualTicks source = new TscClockTest.ManualTicks(1 / 3.0);
        TscCalibration calibration = TscCalibration.of(1 / 3.0, source.ticks, source.monotonic(),
                source.monotonic() + source.realtimeOffset);
        return new TscClock(source, calibration, new TscClock.Tuning(), TscTrust.ALWAYS, message -> { });
    }
}
