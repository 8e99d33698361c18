package io.fastclock.probe;

/**
 * The run-time checks of the TSC: CPUID's invariant-TSC bit, calibration against CLOCK_MONOTONIC and
 * the cross-CPU check. Immutable; {@link #notChecked()} when they were not run (for example because
 * nothing needed the TSC).
 */
public final class TscHealth {
    private final boolean checked;
    private final boolean cpuidInvariant;
    private final boolean calibrated;
    private final String calibrationProblem;
    private final boolean crossCpuOk;
    private final String crossCpuProblem;

    /**
     * @param calibrationProblem why calibration did not converge (null if it did)
     * @param crossCpuProblem    what the cross-CPU check found, e.g. "TSC went backwards 3 times
     *                           across 2 CPUs, worst 120 ticks" (null if it found nothing)
     */
    public TscHealth(boolean checked, boolean cpuidInvariant, boolean calibrated, String calibrationProblem,
            boolean crossCpuOk, String crossCpuProblem) {
        this.checked = checked;
        this.cpuidInvariant = checked && cpuidInvariant;
        this.calibrated = checked && calibrated;
        this.calibrationProblem = calibrated ? null : calibrationProblem;
        this.crossCpuOk = checked && crossCpuOk;
        this.crossCpuProblem = crossCpuOk ? null : crossCpuProblem;
    }

    public static TscHealth notChecked() {
        return new TscHealth(false, false, false, null, false, null);
    }

    /** Every check passed. */
    public static TscHealth healthy() {
        return new TscHealth(true, true, true, null, true, null);
    }

    public boolean checked() {
        return checked;
    }

    public boolean cpuidInvariant() {
        return cpuidInvariant;
    }

    public boolean calibrated() {
        return calibrated;
    }

    public String calibrationProblem() {
        return calibrationProblem;
    }

    public boolean crossCpuOk() {
        return crossCpuOk;
    }

    public String crossCpuProblem() {
        return crossCpuProblem;
    }

    @Override
    public String toString() {
        if (!checked) {
            return "TscHealth{not checked}";
        }
        return "TscHealth{invariant=" + cpuidInvariant + ", calibrated=" + (calibrated ? "yes" : calibrationProblem)
                + ", crossCpu=" + (crossCpuOk ? "ok" : crossCpuProblem) + "}";
    }
}
