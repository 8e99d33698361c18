package io.fastclock.decide;

import io.fastclock.config.Backend;
import io.fastclock.decide.Reasons.Clock;
import java.util.List;

/**
 * The backend for System.nanoTime: the TSC clock if it can be used (and, under auto, the system
 * clock is slow and the TSC measurably faster), else the system clock; a coarse nanoTime only when
 * {@code nanos=coarse} is named, with a warning.
 */
final class NanosChoice {
    private NanosChoice() {}

    static Choice choose(DecisionInputs in, List<String> warnings) {
        switch (in.settings.nanos()) {
            case SYSTEM:
                return Choice.system(Reasons.systemRequested(Clock.NANOS));
            case COARSE:
                return namedCoarse(in, warnings);
            case TSC:
                return namedTsc(in, warnings);
            case AUTO:
            default:
                return auto(in);
        }
    }

    /** nanos=coarse: CLOCK_MONOTONIC_COARSE through JNI, stating two ticks of lag, always with a warning. */
    private static Choice namedCoarse(DecisionInputs in, List<String> warnings) {
        String name = Backend.COARSE.settingName();
        long res = in.measured.coarseResolutionNs();
        String why = ChoiceRules.coarseProblem(in, Reasons.MONOTONIC_COARSE, in.libraries.jniLoaded(),
                Reasons.nativeNotLoaded(in.libraries.jniProblem()));
        if (why != null) {
            String text = Reasons.cannotHonour(Clock.NANOS, name, why);
            warnings.add(text);
            return Choice.system(Reasons.fullStop(text));
        }
        warnings.add(Reasons.coarseNanosWarning(res));
        double ns = in.measured.monotonicCoarseNs();
        long lag = 2 * res;
        String reason = Reasons.requestedAndUsed(Clock.NANOS, name, Reasons.uses(Clock.NANOS, Reasons.coarseNanos(ns, res, lag)));
        return new Choice(Backend.COARSE, reason + slower(in, name, ns, warnings), lag);
    }

    /** nanos=tsc: the TSC clock wherever it is safe, faster or not. */
    private static Choice namedTsc(DecisionInputs in, List<String> warnings) {
        String name = Backend.TSC.settingName();
        if (in.tscBlocker != null) {
            String text = Reasons.cannotHonourSafely(Clock.NANOS, name, in.tscBlocker);
            warnings.add(text);
            return Choice.system(Reasons.fullStop(text));
        }
        double ns = in.measured.tscNs();
        String reason = Reasons.requestedAndUsed(Clock.NANOS, name, Reasons.uses(Clock.NANOS, Reasons.tscNanos(ns)));
        return new Choice(Backend.TSC, reason + slower(in, name, ns, warnings), 0);
    }

    /** A named backend measured slower than the system clock: a warning, and the sentence the reason ends with ("" if not). */
    private static String slower(DecisionInputs in, String name, double candidateNs, List<String> warnings) {
        double systemNs = in.measured.compiledMonotonicNs();
        if (!ChoiceRules.measuredSlower(candidateNs, systemNs)) {
            return "";
        }
        warnings.add(Reasons.honouredThoughSlower(Clock.NANOS, name, candidateNs, systemNs));
        return Reasons.costsMore(candidateNs, Clock.NANOS, systemNs);
    }

    /** auto, and mode=on: the TSC clock or the system clock (never a coarse one). */
    private static Choice auto(DecisionInputs in) {
        double systemNs = in.measured.monotonicNs();
        if (!in.modeOn() && !in.nanosSlow) {
            return in.notSlow(Clock.NANOS, systemNs);
        }
        String prefix = in.costPrefix(Clock.NANOS, systemNs);
        if (in.tscBlocker != null) {
            return Choice.system(Reasons.tscUnsafeSoSystemNanos(prefix, in.tscBlocker));
        }
        double tsc = in.measured.tscNs();
        double compiledSystemNs = in.measured.compiledMonotonicNs();
        if (!in.modeOn() && ChoiceRules.unconfirmed(tsc, systemNs)) {
            return new Choice(Backend.TSC, Reasons.joined(prefix, Reasons.uses(Clock.NANOS, Reasons.tscNanos(tsc)))
                    + Reasons.unconfirmed(systemNs, Clock.NANOS), 0, true);
        }
        if (!in.modeOn() && !ChoiceRules.faster(tsc, compiledSystemNs)) {
            return Choice.system(Reasons.butSoSystem(prefix, Reasons.notFaster(Reasons.TSC_CLOCK, tsc, compiledSystemNs, Clock.NANOS),
                    Clock.NANOS));
        }
        return new Choice(Backend.TSC, Reasons.joined(prefix, Reasons.uses(Clock.NANOS, Reasons.tscNanos(tsc))), 0);
    }
}
