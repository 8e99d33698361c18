package io.fastclock.probe;

/**
 * Which measurements can change the decision. {@link MachineProbe} asks before each costly one, so
 * that start-up pays only for what can matter; the decision's rules answer (decide.WorthMeasuring),
 * so the probe measures without knowing how the decision is made.
 */
public interface MeasuringPlan {
    /**
     * Whether either system clock may be slow enough that a replacement is wanted, or they were not
     * timed, so that it cannot be ruled out.
     */
    boolean systemClocksMaybeSlow(MachineFacts facts, Measurements measured);

    /** Whether a clock can be put on a replacement: only then are the costs from compiled Java worth timing. */
    boolean replacementPossible(MachineFacts facts, Measurements measured);

    /** Whether nothing that needs no run-time check rules the TSC out, so that its read is worth timing. */
    boolean tscPossible(MachineFacts facts, NativeStatus libraries);

    /** Whether running the TSC checks (CPUID, calibration, cross-CPU) can change the decision. */
    boolean tscChecksWorthRunning(MachineFacts facts, NativeStatus libraries, Measurements measured);

    /** Whether a coarse clock would be chosen were its lag small: only then is the lag worth measuring. */
    boolean coarseLagWorthMeasuring(MachineFacts facts, Measurements measured, NativeStatus libraries, TscHealth health);
}
