package io.fastclock.measure;

import io.fastclock.clock.NativeClocks;

/**
 * What a clock read costs JIT-compiled Java, JNI transition included: the cost the application
 * pays once its call site is rewritten, measured the same way for the system clocks and for each
 * candidate, so that {@code auto} compares like with like (activation.auto in docs/CONTRACT.md).
 *
 * <p>C timings (NativeCostMeter) leave out the JNI transition; a constant for it was wrong by an
 * order of magnitude in a guest where the transition cost 120 ns, and {@code auto} moved
 * currentTimeMillis to a coarse clock that cost twice the system clock from Java.
 *
 * <p>The clocks take turns in one loop, in small batches of one shared method, so that the
 * interpreter's invocation and back-edge counters compile it (C1, which intrinsifies the system
 * clocks as C2 does) after a few dozen rounds; a clock's cost is its fastest batch, which is a
 * compiled one once compilation happened. Bounded by a hard time budget: a clock that did not get
 * {@link #MIN_ROUNDS} batches in it is not measured (NaN), and an unmeasured cost never counts
 * as faster.
 */
public final class CompiledCostMeter {
    /** What can be timed. */
    public static final int REALTIME = 0;
    public static final int MONOTONIC = 1;
    public static final int REALTIME_COARSE = 2;
    public static final int MONOTONIC_COARSE = 3;
    public static final int RDTSCP = 4;
    public static final int LFENCE_RDTSC = 5;
    public static final int MFENCE_RDTSC = 6;
    public static final int RDTSC = 7;

    /** Calls per batch: small, so a slow clock (2 us in an emulated HPET guest) still gets its rounds. */
    static final int CALLS_PER_BATCH = 16;
    /**
     * Rounds each clock must get within the budget. The shared method reaches C1's thresholds
     * (200 invocations, or 2000 invocations and back-edges) within the first 25 or so rounds of
     * four clocks; the remaining rounds run compiled.
     */
    public static final int MIN_ROUNDS = 150;

    private static long sink;

    private CompiledCostMeter() {}

    /** The timing id of a TSC read. */
    public static int of(TscRead read) {
        if (read == TscRead.RDTSCP) {
            return RDTSCP;
        }
        if (read == TscRead.LFENCE_RDTSC) {
            return LFENCE_RDTSC;
        }
        if (read == TscRead.MFENCE_RDTSC) {
            return MFENCE_RDTSC;
        }
        return RDTSC;
    }

    /**
     * ns per call of each clock, in the order given; NaN for a clock that did not get
     * {@link #MIN_ROUNDS} batches within budgetNanos. Runs at least MIN_ROUNDS rounds when the
     * budget allows, and stops at the budget or once extraRounds more rounds than MIN_ROUNDS ran.
     */
    public static double[] nanosPerCall(int[] clocks, long budgetNanos, int extraRounds) {
        int n = clocks.length;
        long[] best = new long[n];
        int[] rounds = new int[n];
        java.util.Arrays.fill(best, Long.MAX_VALUE);
        long deadline = System.nanoTime() + budgetNanos;
        int target = MIN_ROUNDS + extraRounds;
        outer:
        for (int round = 0; round < target; round++) {
            for (int i = 0; i < n; i++) {
                long t = batch(clocks[i], CALLS_PER_BATCH);
                if (t < best[i]) {
                    best[i] = t;
                }
                rounds[i]++;
                if (System.nanoTime() - deadline > 0) {
                    break outer;
                }
            }
        }
        double[] out = new double[n];
        for (int i = 0; i < n; i++) {
            out[i] = rounds[i] >= MIN_ROUNDS && best[i] >= 0 ? (double) best[i] / CALLS_PER_BATCH : Double.NaN;
        }
        return out;
    }

    /** ns for {@code calls} reads of one clock. One method for all, so that all share its compilation. */
    static long batch(int clock, int calls) {
        long sum = 0;
        long start = System.nanoTime();
        switch (clock) {
            case REALTIME:
                for (int i = 0; i < calls; i++) {
                    sum += System.currentTimeMillis();
                }
                break;
            case MONOTONIC:
                for (int i = 0; i < calls; i++) {
                    sum += System.nanoTime();
                }
                break;
            case REALTIME_COARSE:
                for (int i = 0; i < calls; i++) {
                    sum += NativeClocks.realtimeCoarseMillis();
                }
                break;
            case MONOTONIC_COARSE:
                for (int i = 0; i < calls; i++) {
                    sum += NativeClocks.monotonicCoarseNanos();
                }
                break;
            case RDTSCP:
                for (int i = 0; i < calls; i++) {
                    sum += NativeClocks.rdtscp();
                }
                break;
            case LFENCE_RDTSC:
                for (int i = 0; i < calls; i++) {
                    sum += NativeClocks.lfenceRdtsc();
                }
                break;
            case MFENCE_RDTSC:
                for (int i = 0; i < calls; i++) {
                    sum += NativeClocks.mfenceRdtsc();
                }
                break;
            default:
                for (int i = 0; i < calls; i++) {
                    sum += NativeClocks.rdtsc();
                }
                break;
        }
        long elapsed = System.nanoTime() - start;
        sink += sum;
        return elapsed;
    }
}
