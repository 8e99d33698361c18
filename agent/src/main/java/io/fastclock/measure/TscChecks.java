package io.fastclock.measure;

import io.fastclock.clock.NativeClocks;
import io.fastclock.clock.TscCalibration;

/**
 * The run-time half of deciding whether the TSC may be used: what CPUID says, whether the TSC
 * ever goes backwards across CPUs (fio's test), and a calibration that converged. Needs the
 * native library.
 */
public final class TscChecks {
    /** Reads per CPU for the cross-CPU check: about a millisecond on two CPUs. */
    static final int CROSS_CPU_READS = 5_000;
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
    public final TscCalibration calibration;
    /** The reads the clock uses: the cheapest ordered one for nanoTime, an unordered one for millis. */
    public final TscReadChoice reads;

    private TscChecks(int cpuidFlags, boolean crossCpuRan, String crossCpuProblem, long cpus, long reads,
                      TscCalibration calibration, TscReadChoice readChoice) {
        this.cpuidFlags = cpuidFlags;
        this.crossCpuRan = crossCpuRan;
        this.crossCpuProblem = crossCpuProblem;
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

    public static TscChecks run() {
        int flags = NativeClocks.tscFlags();
        TscReadChoice choice = TscReadChoice.measure();
        long[] out = new long[4];
        int rc = NativeClocks.crossCpuTscCheck(CROSS_CPU_READS, out);
        String crossProblem = null;
        boolean ran = rc == 0;
        if (!ran) {
            crossProblem = "it could not run (errno " + -rc + ")";
        } else if (out[2] > 0) {
            crossProblem = String.format("the TSC went backwards %d times across %d CPUs (worst %d ticks)",
                    out[2], out[0], out[3]);
        }
        TscCalibration calibration = null;
        if (crossProblem == null && (flags & NativeClocks.TSC_PRESENT) != 0) {
            calibration = TscCalibration.run(choice.nanos.tickSource(), CALIBRATION_HALF_NANOS);
        }
        return new TscChecks(flags, ran, crossProblem, ran ? out[0] : 0, ran ? out[1] : 0, calibration, choice);
    }
}
