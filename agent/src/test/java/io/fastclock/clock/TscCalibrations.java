package io.fastclock.clock;

/** Calibrations with known results, for the clock's tests. */
final class TscCalibrations {
    private TscCalibrations() {}

    static TscCalibration of(double nanosPerTick, long ticks, long monotonicNanos, long realtimeNanos) {
        return new TscCalibration(true, null, nanosPerTick, null, new long[] {ticks, monotonicNanos, 0, realtimeNanos}, 0, 0);
    }

    /**
     * A calibration over {@code spanTicks} ending at the anchor, each of its two end samples read
     * in a window of {@code windowTicks}: its rate is unsure by that window over the span.
     */
    static TscCalibration withWindows(double nanosPerTick, long ticks, long monotonicNanos, long realtimeNanos,
            long spanTicks, long windowTicks) {
        long[] first = {ticks - spanTicks, monotonicNanos - (long) (spanTicks * nanosPerTick), windowTicks, 0};
        long[] anchor = {ticks, monotonicNanos, windowTicks, realtimeNanos};
        return new TscCalibration(true, null, nanosPerTick, first, anchor, 0, 0);
    }
}
