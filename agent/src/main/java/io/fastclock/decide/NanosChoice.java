package io.fastclock.decide;

import io.fastclock.config.Backend;
import io.fastclock.config.Settings;
import java.util.List;

/**
 * The backend for System.nanoTime: the TSC clock if it can be used (and, under auto, the system
 * clock is slow and the TSC measurably faster), else the system clock; a coarse nanoTime only when
 * {@code nanos=coarse} is named, with a warning.
 */
final class NanosChoice {
    private NanosChoice() {}

    static Choice choose(DecisionInputs in, List<String> warnings) {
        double sys = in.measured.monotonicNs();
        double compiledSys = in.measured.compiledMonotonicNs();
        switch (in.settings.nanos()) {
            case SYSTEM:
                return new Choice(Backend.SYSTEM, "nanos=system was requested, so nanoTime stays on the system clock.", 0);
            case COARSE: {
                long res = in.measured.coarseResolutionNs();
                String why = ChoiceRules.coarseProblem(in, "CLOCK_MONOTONIC_COARSE", in.libraries.jniLoaded(),
                        "the native library did not load" + ChoiceRules.paren(in.libraries.jniProblem()));
                if (why != null) {
                    String text = "nanos=coarse cannot be honoured: " + why + "; nanoTime stays on the system clock";
                    warnings.add(text);
                    return new Choice(Backend.SYSTEM, text + ".", 0);
                }
                warnings.add(Settings.coarseWarning(res));
                double ns = in.measured.monotonicCoarseNs();
                String reason = "nanos=coarse was requested: nanoTime uses CLOCK_MONOTONIC_COARSE through JNI ("
                        + DecisionMaker.ns(ns) + " a read), which ticks only every " + DecisionMaker.ms(res) + " and lags the system clock by up to "
                        + DecisionMaker.ms(2 * res) + ".";
                String slower = ChoiceRules.slowerNote(Backend.COARSE.settingName(), "nanos", ns, DecisionMaker.NANOS, compiledSys);
                if (slower != null) {
                    warnings.add(slower);
                    reason += ChoiceRules.slowerSentence(ns, DecisionMaker.NANOS, compiledSys);
                }
                return new Choice(Backend.COARSE, reason, 2 * res);
            }
            case TSC: {
                if (in.tscBlocker != null) {
                    String text = "nanos=tsc cannot be honoured safely: " + in.tscBlocker
                            + "; nanoTime stays on the system clock";
                    warnings.add(text);
                    return new Choice(Backend.SYSTEM, text + ".", 0);
                }
                String reason = "nanos=tsc was requested: nanoTime uses the TSC clock (" + DecisionMaker.ns(in.measured.tscNs()) + " a TSC read).";
                String slower = ChoiceRules.slowerNote(Backend.TSC.settingName(), "nanos", in.measured.tscNs(), DecisionMaker.NANOS, compiledSys);
                if (slower != null) {
                    warnings.add(slower);
                    reason += ChoiceRules.slowerSentence(in.measured.tscNs(), DecisionMaker.NANOS, compiledSys);
                }
                return new Choice(Backend.TSC, reason, 0);
            }
            case AUTO:
            default:
                break;
        }
        boolean on = in.settings.mode() == Settings.Mode.ON;
        String noCoarse = " (a coarse nanoTime is used only when nanos=coarse is named)";
        if (on) {
            String prefix = "mode=on: " + in.cost(DecisionMaker.NANOS, sys);
            if (in.tscBlocker == null) {
                return new Choice(Backend.TSC, prefix + "; nanoTime uses the TSC clock (" + DecisionMaker.ns(in.measured.tscNs()) + " a TSC read).", 0);
            }
            return new Choice(Backend.SYSTEM, prefix + ", but the TSC cannot be used safely: " + in.tscBlocker
                    + "; so nanoTime stays on the system clock" + noCoarse + ".", 0);
        }
        if (!in.nanosSlow) {
            return new Choice(Backend.SYSTEM, ChoiceRules.notSlow(in, DecisionMaker.NANOS, sys) + ", so nanoTime stays on the system clock.", 0);
        }
        String prefix = in.cost(DecisionMaker.NANOS, sys);
        if (in.tscBlocker != null) {
            return new Choice(Backend.SYSTEM, prefix + ", but the TSC cannot be used safely: " + in.tscBlocker
                    + "; so nanoTime stays on the system clock" + noCoarse + ".", 0);
        }
        double tsc = in.measured.tscNs();
        if (!ChoiceRules.faster(tsc, compiledSys)) {
            return new Choice(Backend.SYSTEM, prefix + ", but " + ChoiceRules.notFaster("the TSC clock", tsc, compiledSys, DecisionMaker.NANOS)
                    + ", so nanoTime stays on the system clock.", 0);
        }
        return new Choice(Backend.TSC, prefix + "; nanoTime uses the TSC clock (" + DecisionMaker.ns(tsc) + " a TSC read).", 0);
    }
}
