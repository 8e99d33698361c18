package io.fastclock.decide;

import io.fastclock.config.Backend;
import io.fastclock.config.OneLine;
import io.fastclock.config.Settings;
import java.util.ArrayList;
import java.util.List;

/** The one line a decision prints on stderr at start-up: what is active and why, or why nothing is. */
final class StartLine {
    private StartLine() {}

    /** Summary line for stderr. */
    static String of(DecisionInputs in, Choice millis, Choice nanos) {
        String cs = "clocksource " + in.machine.clocksourceForDisplay();
        if (millis.backend() != Backend.SYSTEM || nanos.backend() != Backend.SYSTEM) {
            StringBuilder sb = new StringBuilder(OneLine.PREFIX + "active: currentTimeMillis -> ")
                    .append(millis.backend().settingName()).append(", nanoTime -> ")
                    .append(nanos.backend().settingName()).append(" (").append(cs);
            List<String> costs = new ArrayList<>();
            if (!Double.isNaN(in.measured.realtimeNs())) {
                costs.add(DecisionMaker.MILLIS + " " + DecisionMaker.ns(in.measured.realtimeNs()) + "/call");
            }
            if (!Double.isNaN(in.measured.monotonicNs())) {
                costs.add(DecisionMaker.NANOS + " " + DecisionMaker.ns(in.measured.monotonicNs()) + "/call");
            }
            if (!costs.isEmpty()) {
                sb.append("; ").append(String.join(", ", costs));
            }
            long res = in.measured.coarseResolutionNs();
            // The millis resolution and lag follow in the agent's start line (AgentStartup).
            if (nanos.backend() == Backend.COARSE) {
                sb.append("; nanoTime ticks every ").append(DecisionMaker.ms(res));
            }
            boolean tscWanted = in.settings.nanos() == Settings.Nanos.AUTO || in.settings.nanos() == Settings.Nanos.TSC
                    || in.settings.millis() == Settings.Millis.AUTO || in.settings.millis() == Settings.Millis.TSC;
            if (tscWanted && in.tscBlocker != null && millis.backend() != Backend.TSC && nanos.backend() != Backend.TSC) {
                sb.append("; TSC not used: ").append(in.tscBlocker);
            }
            return sb.append(')').toString();
        }
        if (ActivationRules.fastHere(in.settings, in.machine.clocksourceKnownSlow(), in.measured.realtimeNs(), in.measured.monotonicNs())) {
            return ActivationRules.fastHereLine(in.machine.clocksourceForDisplay(), DecisionMaker.ns(in.measured.realtimeNs()), DecisionMaker.ns(in.measured.monotonicNs()),
                    in.settings.thresholdNs());
        }
        return OneLine.PREFIX + "inactive: " + millis.reason() + " " + nanos.reason();
    }
}
