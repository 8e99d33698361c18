package io.fastclock.decide;

import io.fastclock.config.Settings;
import io.fastclock.decide.Reasons.Clock;
import io.fastclock.probe.MachineFacts;
import io.fastclock.probe.Measurements;
import io.fastclock.probe.NativeStatus;
import io.fastclock.probe.TscHealth;

/** Everything one decision looks at, and what follows from it for both clocks. Immutable. */
final class DecisionInputs {
    final Settings settings;
    final MachineFacts machine;
    final Measurements measured;
    /** Whether the JNI library loaded and JNA is usable. */
    final NativeStatus libraries;
    /** Why the TSC cannot be used, or null if it can. */
    final String tscBlocker;
    /** Whether System.currentTimeMillis is slow here, so that auto looks for a faster backend. */
    final boolean millisSlow;
    /** Whether System.nanoTime is slow here. */
    final boolean nanosSlow;

    DecisionInputs(Settings settings, MachineFacts machine, Measurements measured, NativeStatus libraries, TscHealth health) {
        this.settings = settings;
        this.machine = machine;
        this.measured = measured;
        this.libraries = libraries;
        this.tscBlocker = TscRules.blocker(machine, libraries, health);
        // Slow: timed in C, against the threshold. Faster: compiled costs against compiled costs.
        this.millisSlow = ActivationRules.slow(machine.clocksourceKnownSlow(), measured.realtimeNs(), settings.thresholdNs());
        this.nanosSlow = ActivationRules.slow(machine.clocksourceKnownSlow(), measured.monotonicNs(), settings.thresholdNs());
    }

    boolean modeOn() {
        return settings.mode() == Settings.Mode.ON;
    }

    /** What the system clock costs here, and under mode=on, that it is mode=on: how auto's reasons begin. */
    String costPrefix(Clock clock, double ns) {
        return modeOn() ? Reasons.modeOnCost(clock, ns, machine) : Reasons.cost(clock, ns, machine);
    }

    /** The system clock is not slow, so the clock stays on it. */
    Choice notSlow(Clock clock, double ns) {
        return Choice.system(Reasons.notSlowSoSystem(clock, ns, machine, settings.thresholdNs()));
    }
}
