package io.fastclock.measure;

import io.fastclock.clock.NativeClocks;

/**
 * What a clock read costs, timed in C (NativeClocks.timeCalls) so that the answer is the clock's
 * cost and not the interpreter's: whether the system clocks are slow (the threshold), and the
 * doctor's table. What a replacement costs the application is another question, answered from
 * compiled Java with the JNI transition in it (CompiledCostMeter). The minimum of
 * several batches is reported, the usual estimate on a noisy machine.
 */
public final class NativeCostMeter {
    private final int batches;
    private final long callsPerBatch;

    public NativeCostMeter(int batches, long callsPerBatch) {
        this.batches = batches;
        this.callsPerBatch = callsPerBatch;
    }

    /**
     * Quick enough for start-up: 2k calls a clock, the best of 5 batches. On an HPET-like 700 ns
     * clock that is 1.4 ms a clock (10k calls took 7 ms); the batch's own two timing reads add
     * under 4 ns a call there, far below the 100 ns threshold this decides on.
     */
    public static NativeCostMeter forStartup() {
        return new NativeCostMeter(5, 400);
    }

    /** ns per call, or NaN if the clock cannot be read. */
    public double nanosPerCall(int clockId) {
        double best = Double.NaN;
        for (int i = 0; i < batches; i++) {
            long total = NativeClocks.timeCalls(clockId, callsPerBatch);
            if (total < 0) {
                return Double.NaN;
            }
            double perCall = (double) total / callsPerBatch;
            if (Double.isNaN(best) || perCall < best) {
                best = perCall;
            }
        }
        return best;
    }
}
