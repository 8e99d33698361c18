package io.fastclock.clock;

/** Calibrations with known results, for the clock's tests. */
final class TscCalibrations {
    private TscCalibrations() {}

    static TscCalibration of(double nanosPerTick, long ticks, long monotonicNanos, long realtimeNanos) {
        return new TscCalibration(true, null, nanosPerTick, new long[] {ticks, monotonicNanos, 0, realtimeNanos}, 0, 0);
    }
}
