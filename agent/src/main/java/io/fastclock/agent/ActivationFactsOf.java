package io.fastclock.agent;

import io.fastclock.config.OneLine;
import io.fastclock.config.Settings;
import io.fastclock.observe.ActivationFacts;
import io.fastclock.config.Backend;
import io.fastclock.decide.Decision;
import io.fastclock.probe.MachineProbe;
import io.fastclock.probe.Measurements;
import io.fastclock.decide.ProbedDecision;

/** The Activation event's and the MBean's view of a probe's decision. */
final class ActivationFactsOf {
    private ActivationFactsOf() {}

    static ActivationFacts decision(String how, String startLine, ProbedDecision probed, Settings settings) {
        MachineProbe probe = probed.probe();
        Decision d = probed.decision();
        Measurements m = probe.measurements;
        return new ActivationFacts(how, d.active(), OneLine.withoutPrefix(startLine),
                probe.facts.currentClocksource(), d.millis().backend().settingName(), d.millis().reason(),
                d.nanos().backend().settingName(), d.nanos().reason(), Math.max(0, d.millis().lagNs()),
                m.realtimeNs(), m.monotonicNs(), cost(d.millis().backend(), m, true), cost(d.nanos().backend(), m, false),
                settings.thresholdNs());
    }

    /** What the chosen backend cost when the probe timed it, ns per call (NaN if it was not timed). */
    static double cost(Backend backend, Measurements m, boolean millis) {
        switch (backend) {
            case COARSE:
                return millis ? m.realtimeCoarseNs() : m.monotonicCoarseNs();
            case TSC:
                return millis ? m.tscMillisNs() : m.tscNs();
            case JNA_COARSE:
                return m.jnaCoarseNs();
            default:
                return millis ? m.realtimeNs() : m.monotonicNs();
        }
    }
}
