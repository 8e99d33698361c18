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
 * <p>The clocks take turns in one loop, in small batches (16 calls; fewer where the system clocks
 * are dear) of one shared method, so that the
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

    /** Calls per batch where the system clocks are cheap. */
    static final int MAX_CALLS_PER_BATCH = 16;
    /** Calls per batch where they are dear (several us in an emulated HPET guest). */
    static final int MIN_CALLS_PER_BATCH = 4;
    /**
     * Rounds each clock must get within the budget. The shared method reaches C1's thresholds
     * (200 invocations, or 2000 invocations and back-edges) within the first 25 to 50 rounds of
     * four or five clocks; the remaining rounds run compiled.
     */
    public static final int MIN_ROUNDS = 100;

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
     * Calls per batch for a system clock that costs systemNs (timed in C): 16, fewer where it is dear,
     * so that the rounds fit the budget. Each batch's two System.nanoTime reads add the same ns to
     * every clock's cost, so the comparison between clocks is not skewed by it.
     */
    public static int callsPerBatch(double systemNs) {
        if (Double.isNaN(systemNs) || systemNs <= 500) {
            return MAX_CALLS_PER_BATCH;
        }
        return (int) Math.max(MIN_CALLS_PER_BATCH, Math.min(MAX_CALLS_PER_BATCH, MAX_CALLS_PER_BATCH * 500 / systemNs));
    }

    /**
     * ns per call of each clock, in the order given; NaN for a clock that did not get
     * {@link #MIN_ROUNDS} batches within budgetNanos. Runs at least MIN_ROUNDS rounds when the
     * budget allows, and stops at the budget or once extraRounds more rounds than MIN_ROUNDS ran.
     */
    public static double[] nanosPerCall(int[] clocks, long budgetNanos, int extraRounds, int callsPerBatch) {
        int n = clocks.length;
        long[] best = new long[n];
        int[] rounds = new int[n];
        java.util.Arrays.fill(best, Long.MAX_VALUE);
        long deadline = System.nanoTime() + budgetNanos;
        int target = MIN_ROUNDS + extraRounds;
        for (int round = 0; round < target; round++) {
            for (int i = 0; i < n; i++) {
                long t = batch(clocks[i], callsPerBatch);
                if (t < best[i]) {
                    best[i] = t;
                }
                rounds[i]++;
            }
            // Once a round: where the system clocks are dear, this read is one of them.
            if (System.nanoTime() - deadline > 0) {
                break;
            }
        }
        double[] out = new double[n];
        for (int i = 0; i < n; i++) {
            out[i] = rounds[i] >= MIN_ROUNDS && best[i] >= 0 ? (double) best[i] / callsPerBatch : Double.NaN;
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
