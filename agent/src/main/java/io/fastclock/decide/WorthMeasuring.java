package io.fastclock.decide;

import io.fastclock.config.Backend;
import io.fastclock.config.Settings;
import io.fastclock.probe.MachineFacts;
import io.fastclock.probe.MeasuringPlan;
import io.fastclock.probe.Measurements;
import io.fastclock.probe.NativeStatus;
import io.fastclock.probe.TscHealth;

/**
 * The decision's rules, asked before measuring: which measurements can change what they decide for
 * these settings. The probe measures only those, so start-up pays for nothing that cannot matter.
 */
public final class WorthMeasuring implements MeasuringPlan {
    private final Settings settings;

    public WorthMeasuring(Settings settings) {
        this.settings = settings;
    }

    /** Either system clock slow by the decision's rule, or the system clocks not timed, so that it cannot be ruled out. */
    @Override
    public boolean systemClocksMaybeSlow(MachineFacts facts, Measurements measured) {
        boolean knownSlow = facts.clocksourceKnownSlow();
        return ActivationRules.slow(knownSlow, measured.realtimeNs(), settings.thresholdNs())
                || ActivationRules.slow(knownSlow, measured.monotonicNs(), settings.thresholdNs())
                || Double.isNaN(measured.realtimeNs());
    }

    /** mode=on, a backend named, or a system clock that may be slow. */
    @Override
    public boolean replacementPossible(MachineFacts facts, Measurements measured) {
        return settings.mode() == Settings.Mode.ON || systemClocksMaybeSlow(facts, measured)
                || settings.millis() != Settings.Millis.AUTO || settings.nanos() != Settings.Nanos.AUTO;
    }

    @Override
    public boolean tscPossible(MachineFacts facts, NativeStatus libraries) {
        return TscRules.staticBlocker(facts, libraries) == null;
    }

    /** The TSC not ruled out already, and wanted: mode=on, named, or a system clock that may be slow. */
    @Override
    public boolean tscChecksWorthRunning(MachineFacts facts, NativeStatus libraries, Measurements measured) {
        return TscRules.checksWorthRunning(settings, facts, libraries)
                && (settings.mode() == Settings.Mode.ON || systemClocksMaybeSlow(facts, measured)
                    || settings.millis() == Settings.Millis.TSC || settings.nanos() == Settings.Nanos.TSC);
    }

    /** Decided as if the lag were nothing: the decision is pure, so this costs no measurement. */
    @Override
    public boolean coarseLagWorthMeasuring(MachineFacts facts, Measurements measured, NativeStatus libraries, TscHealth health) {
        Backend millis = new DecisionMaker().decide(settings, facts, measured.withCoarseLagNs(0), libraries, health)
                .millis().backend();
        return millis == Backend.COARSE || millis == Backend.JNA_COARSE;
    }
}
