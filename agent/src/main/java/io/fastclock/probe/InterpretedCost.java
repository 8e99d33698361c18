package io.fastclock.probe;

/**
 * What a system clock costs timed from Java before anything is compiled: the clock read plus the
 * interpreter's loop and call overhead, so an upper bound of what compiled code pays. Used where
 * nothing faster to time with is there yet: the cheap answer on a fast machine
 * (decide.FastSystemClocksCheck) and the costs through JNA when the native library did not load.
 */
public final class InterpretedCost {
    private static final int BATCHES = 5;
    private static final int CALLS_PER_BATCH = 200;
    private static long sink;

    private InterpretedCost() {}

    /**
     * The fastest of a few batches, so a preempted batch does not count; stops once a batch after
     * the first is under the threshold, since one such batch already bounds the cost.
     *
     * @param millis System.currentTimeMillis when true, else System.nanoTime
     */
    public static double upperBoundNanosPerCall(boolean millis, long thresholdNs) {
        long best = Long.MAX_VALUE;
        long acc = 0;
        for (int batch = 0; batch < BATCHES; batch++) {
            long start = System.nanoTime();
            if (millis) {
                for (int i = 0; i < CALLS_PER_BATCH; i++) {
                    acc += System.currentTimeMillis();
                }
            } else {
                for (int i = 0; i < CALLS_PER_BATCH; i++) {
                    acc += System.nanoTime();
                }
            }
            best = Math.min(best, System.nanoTime() - start);
            if (batch >= 1 && best <= thresholdNs * CALLS_PER_BATCH) { // the first batch also links the call
                break;
            }
        }
        sink += acc;
        return (double) best / CALLS_PER_BATCH;
    }
}
