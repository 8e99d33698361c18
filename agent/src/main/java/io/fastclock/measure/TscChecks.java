package io.fastclock.measure;

import io.fastclock.clock.NativeClocks;
import io.fastclock.clock.TscCalibration;

/**
 * The run-time half of deciding whether the TSC may be used: what CPUID says, whether the TSC
 * ever goes backwards across CPUs (fio's test), and a calibration that converged. Needs the
 * native library.
 */
public final class TscChecks {
    /** Reads per CPU for the cross-CPU check: about a millisecond on two idle CPUs. */
    static final int CROSS_CPU_READS = 5_000;
    /**
     * When the cross-CPU check stops, even unfinished, if every CPU has compared its TSC with the
     * others' often enough. Each reader is pinned to one CPU and waits for its turn there, so busy
     * CPUs stretch the check (DESIGN-NOTES 18); past this it keeps what it has once that is enough.
     */
    static final long CROSS_CPU_SOFT_NANOS = 10_000_000L;
    /**
     * The most the check waits for a CPU that has not compared often enough: then the TSC is not
     * used. On 2 CPUs with 4 busy loops beside them the unbounded check took up to 230 ms; a CPU
     * held by a real-time spinner would have held JVM start-up until the kernel throttled it.
     */
    static final long CROSS_CPU_HARD_NANOS = 250_000_000L;
    /**
     * Handovers (a read right after another CPU's: the only reads that compare two CPUs) each CPU
     * must have taken part in for a check stopped early to count. A complete check on 2 idle CPUs
     * has thousands; a reader that made all its reads in a row has two at most.
     */
    static final int CROSS_CPU_MIN_HANDOVERS = 50;
    /**
     * Length of each calibration half. It is JVM start-up time, so it is short: sample windows are
     * tens of ns here, so 2 ms gives the rate to a few tens of ppm. The clock's first segment is
     * short (see TscClock) and re-anchoring slews the rest away within a quarter of a second.
     */
    static final long CALIBRATION_HALF_NANOS = 2_000_000L;

    public final int cpuidFlags;
    public final boolean crossCpuRan;
    public final String crossCpuProblem;
    public final long crossCpuCpus;
    public final long crossCpuReads;
    /**
     * The cross-CPU check stopped at its hard limit before every CPU was compared often enough: the
     * CPUs were busy, which says nothing about the TSC (a later check may pass).
     */
    public final boolean crossCpuCutShortByBusyCpus;
    public final TscCalibration calibration;
    /** The reads the clock uses: the cheapest ordered one for nanoTime, an unordered one for millis. */
    public final TscReadChoice reads;

    private TscChecks(int cpuidFlags, boolean crossCpuRan, String crossCpuProblem, boolean cutShort, long cpus, long reads,
            TscCalibration calibration, TscReadChoice readChoice) {
        this.cpuidFlags = cpuidFlags;
        this.crossCpuRan = crossCpuRan;
        this.crossCpuProblem = crossCpuProblem;
        this.crossCpuCutShortByBusyCpus = cutShort;
        this.crossCpuCpus = cpus;
        this.crossCpuReads = reads;
        this.calibration = calibration;
        this.reads = readChoice;
    }

    public boolean cpuidInvariant() {
        return (cpuidFlags & NativeClocks.TSC_INVARIANT) != 0;
    }

    public boolean crossCpuOk() {
        return crossCpuRan && crossCpuProblem == null;
    }

    /** What the check's figures show wrong, or null: out as NativeClocks.crossCpuTscCheckBounded fills it. */
    static String crossCpuProblem(long[] out) {
        if (out[2] > 0) {
            return String.format("the TSC went backwards %d times across %d CPUs (worst %d ticks)", out[2], out[0], out[3]);
        }
        if (cutShortByBusyCpus(out)) {
            // Safety over speed: a CPU that was not compared is not known to agree.
            return String.format("it did not finish within its %d ms (the CPUs were busy): one of %d CPUs was compared"
                    + " with the others %d times of the %d needed", CROSS_CPU_HARD_NANOS / 1_000_000, out[0], out[5],
                    CROSS_CPU_MIN_HANDOVERS);
        }
        return null;
    }

    /** Stopped at the hard limit with a CPU compared too rarely, and no backward step seen. */
    static boolean cutShortByBusyCpus(long[] out) {
        return out[2] == 0 && out[4] != 0 && out[5] < CROSS_CPU_MIN_HANDOVERS;
    }

    public static TscChecks run() {
        int flags = NativeClocks.tscFlags();
        TscReadChoice choice = TscReadChoice.measure();
        long[] out = new long[6];
        int rc = NativeClocks.crossCpuTscCheckBounded(CROSS_CPU_READS, CROSS_CPU_MIN_HANDOVERS, CROSS_CPU_SOFT_NANOS,
                CROSS_CPU_HARD_NANOS, out);
        boolean ran = rc == 0;
        String crossProblem = ran ? crossCpuProblem(out) : "it could not run (errno " + -rc + ")";
        TscCalibration calibration = null;
        if (crossProblem == null && (flags & NativeClocks.TSC_PRESENT) != 0) {
            calibration = TscCalibration.run(choice.nanos.tickSource(), CALIBRATION_HALF_NANOS);
        }
        return new TscChecks(flags, ran, crossProblem, ran && cutShortByBusyCpus(out), ran ? out[0] : 0, ran ? out[1] : 0,
                calibration, choice);
    }
}
