package io.fastclock.decide;

import io.fastclock.config.Backend;
import io.fastclock.config.Settings;
import java.util.ArrayList;
import java.util.List;

/** The one line a decision prints on stderr at start-up: what is active and why, or why nothing is. */
final class StartLine {
    private StartLine() {}

    static String of(DecisionInputs in, Choice millis, Choice nanos) {
        if (millis.backend() != Backend.SYSTEM || nanos.backend() != Backend.SYSTEM) {
            List<String> notes = new ArrayList<>();
            String costs = Reasons.callCosts(in.measured.realtimeNs(), in.measured.monotonicNs());
            if (costs != null) {
                notes.add(costs);
            }
            // The millis resolution and lag follow in the agent's start line (AgentStartup).
            if (nanos.backend() == Backend.COARSE) {
                notes.add(Reasons.nanosTicks(in.measured.coarseResolutionNs()));
            }
            Settings settings = in.settings;
            boolean tscWanted = settings.nanos() == Settings.Nanos.AUTO || settings.nanos() == Settings.Nanos.TSC
                    || settings.millis() == Settings.Millis.AUTO || settings.millis() == Settings.Millis.TSC;
            if (tscWanted && in.tscBlocker != null && millis.backend() != Backend.TSC && nanos.backend() != Backend.TSC) {
                notes.add(Reasons.tscNotUsed(in.tscBlocker));
            }
            if (millis.unconfirmed() || nanos.unconfirmed()) {
                notes.add(Reasons.UNCONFIRMED_NOTE);
            }
            return Reasons.activeLine(millis.backend(), nanos.backend(), in.machine.clocksourceForDisplay(), notes);
        }
        if (ActivationRules.fastHere(in.settings, in.machine.clocksourceKnownSlow(), in.measured.realtimeNs(),
                in.measured.monotonicNs())) {
            return Reasons.fastHereLine(in.machine.clocksourceForDisplay(), Reasons.ns(in.measured.realtimeNs()),
                    Reasons.ns(in.measured.monotonicNs()), in.settings.thresholdNs());
        }
        return Reasons.inactiveLine(millis.reason(), nanos.reason());
    }
}
