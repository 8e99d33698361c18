package io.fastclock.decide;

import io.fastclock.config.Backend;
import io.fastclock.config.Settings;
import io.fastclock.probe.MachineProbe;
import java.util.function.Consumer;

/**
 * What the agent starts from: the machine probed, measuring only what can change the decision
 * ({@link WorthMeasuring}), and the decision made once from what was measured.
 */
public final class ProbedDecision {
    private final MachineProbe probe;
    private final Decision decision;

    private ProbedDecision(MachineProbe probe, Decision decision) {
        this.probe = probe;
        this.decision = decision;
    }

    /**
     * @param beforeJna makes the boot runtime's types exist before JNA's adapter is loaded (see
     *     {@link MachineProbe#run(Settings, boolean, Runnable, io.fastclock.probe.MeasuringPlan)})
     */
    public static ProbedDecision run(Settings settings, Runnable beforeJna, Consumer<Module> runtimeExportedTo) {
        MachineProbe probe = MachineProbe.run(settings, false, beforeJna, runtimeExportedTo, new WorthMeasuring(settings));
        Decision decision = new DecisionMaker().decide(settings, probe.facts, probe.measurements, probe.nativeStatus,
                probe.tscHealth);
        return new ProbedDecision(probe, decision);
    }

    public MachineProbe probe() {
        return probe;
    }

    public Decision decision() {
        return decision;
    }

    /**
     * Whether busy CPUs may have cost the decision something: a measurement was cut short, and the
     * decision does not already put both clocks on the TSC (the best it can choose), nor took, unconfirmed,
     * what the compiled timing would have told it (a later measurement confirms that) while the TSC's
     * checks were complete.
     */
    public boolean limitedByBusyCpus() {
        if (probe.busyReason == null || decision.millis().backend() == Backend.TSC && decision.nanos().backend() == Backend.TSC) {
            return false;
        }
        boolean crossCpuCutShort = probe.tscChecks != null && probe.tscChecks.crossCpuCutShortByBusyCpus;
        return !decision.unconfirmed() || crossCpuCutShort;
    }

    /** What the decision's summary may not say: why the native library or the machine's files were unusable. */
    public String nativeNote() {
        StringBuilder note = new StringBuilder();
        if (!probe.nativeResult.loaded() && !decision.summary().contains(probe.nativeResult.problem)) {
            note.append(" (").append(probe.nativeResult.problem).append(')');
        }
        if (probe.facts.currentClocksource() == null && !probe.facts.problems().isEmpty()) {
            note.append(" (").append(probe.facts.problems().get(0)).append(')');
        }
        return note.toString();
    }
}
