package io.fastclock.decide;

import io.fastclock.config.Backend;
import io.fastclock.decide.Reasons.Clock;
import io.fastclock.probe.Measurements;
import java.util.ArrayList;
import java.util.List;

/**
 * The backend for System.currentTimeMillis: a backend named by {@code millis=} when it is safe, else
 * auto's order (the coarse clock through JNI when it ticks every 1 ms or finer; else the TSC clock;
 * else the coarse clock through JNI with its lag stated; else through JNA; else the system clock).
 */
final class MillisChoice {
    /** The coarse clock comes before the TSC clock only when it ticks this often or more. */
    private static final long FINE_COARSE_RESOLUTION_NS = 1_000_000L;

    private MillisChoice() {}

    static Choice choose(DecisionInputs in, List<String> warnings) {
        switch (in.settings.millis()) {
            case SYSTEM:
                return Choice.system(Reasons.systemRequested(Clock.MILLIS));
            case COARSE:
                return named(in, Backend.COARSE, coarse(in, false, true, null), in.measured.realtimeCoarseNs(), warnings);
            case TSC:
                return named(in, Backend.TSC, tsc(in, false, null), in.measured.tscMillisNs(), warnings);
            case JNA_COARSE:
                return named(in, Backend.JNA_COARSE, jna(in, false, true, null), in.measured.jnaCoarseNs(), warnings);
            case AUTO:
            default:
                return auto(in);
        }
    }

    /** auto, and mode=on: the first backend of auto's order that can be used (and, under auto, is faster). */
    private static Choice auto(DecisionInputs in) {
        double systemNs = in.measured.realtimeNs();
        if (!in.modeOn() && !in.millisSlow) {
            return in.notSlow(Clock.MILLIS, systemNs);
        }
        boolean requireFaster = !in.modeOn();
        String prefix = in.costPrefix(Clock.MILLIS, systemNs);
        List<String> whyNot = new ArrayList<>();
        long res = in.measured.coarseResolutionNs();

        boolean fineCoarse = in.libraries.jniLoaded() && res > 0 && res <= FINE_COARSE_RESOLUTION_NS;
        if (fineCoarse) {
            Candidate coarse = coarse(in, requireFaster, false, prefix);
            if (coarse.choice != null) {
                return coarse.choice;
            }
            ChoiceRules.addDistinct(whyNot, coarse.whyNot);
        }
        String coarseNote = !in.libraries.jniLoaded() ? null
                : res > 0 ? Reasons.coarseTicksOnlyEvery(res)
                : Reasons.COARSE_RESOLUTION_UNKNOWN;
        Candidate tsc = tsc(in, requireFaster, coarseNote == null ? prefix : Reasons.joined(prefix, coarseNote));
        if (tsc.choice != null) {
            return tsc.choice;
        }
        ChoiceRules.addDistinct(whyNot, tsc.whyNot);
        if (!fineCoarse) {
            Candidate coarse = coarse(in, requireFaster, false, Reasons.joined(prefix, Reasons.tscNotUsedBecause(tsc.whyNot)));
            if (coarse.choice != null) {
                return coarse.choice;
            }
            ChoiceRules.addDistinct(whyNot, coarse.whyNot);
        }
        String jniWhyNot = in.libraries.jniLoaded() ? Reasons.noJniClock(whyNot)
                : Reasons.nativeNotLoaded(in.libraries.jniProblem());
        Candidate jna = jna(in, requireFaster, false, Reasons.joined(prefix, jniWhyNot));
        if (jna.choice != null) {
            return jna.choice;
        }
        ChoiceRules.addDistinct(whyNot, jna.whyNot);
        return Choice.system(Reasons.noFasterClock(prefix, whyNot, Clock.MILLIS));
    }

    /** A backend named by millis=: honoured if it can be, else the system clock and a warning. */
    private static Choice named(DecisionInputs in, Backend backend, Candidate candidate, double candidateNs,
            List<String> warnings) {
        String name = backend.settingName();
        if (candidate.choice == null) {
            String text = Reasons.cannotHonour(Clock.MILLIS, name, candidate.whyNot);
            warnings.add(text);
            return Choice.system(Reasons.fullStop(text));
        }
        double systemNs = in.measured.compiledRealtimeNs();
        boolean slower = ChoiceRules.measuredSlower(candidateNs, systemNs);
        if (slower) {
            warnings.add(Reasons.honouredThoughSlower(Clock.MILLIS, name, candidateNs, systemNs));
        }
        return new Choice(candidate.choice.backend(), Reasons.requestedAndUsed(Clock.MILLIS, name, candidate.choice.reason())
                + (slower ? Reasons.costsMore(candidateNs, Clock.MILLIS, systemNs) : ""), candidate.choice.lagNs());
    }

    /**
     * CLOCK_REALTIME_COARSE through JNI for currentTimeMillis.
     *
     * @param prefix start of the reason sentence; null for a bare description (a backend named)
     */
    private static Candidate coarse(DecisionInputs in, boolean requireFaster, boolean named, String prefix) {
        String why = ChoiceRules.coarseProblem(in, Reasons.REALTIME_COARSE, in.libraries.jniLoaded(),
                Reasons.nativeNotLoaded(in.libraries.jniProblem()));
        if (why != null) {
            return Candidate.no(why);
        }
        double ns = in.measured.realtimeCoarseNs();
        boolean unconfirmed = requireFaster && ChoiceRules.unconfirmed(ns, in.measured.realtimeNs());
        if (requireFaster && !unconfirmed && !ChoiceRules.faster(ns, in.measured.compiledRealtimeNs())) {
            return Candidate.no(Reasons.notFaster(Reasons.COARSE_VIA_JNI, ns, in.measured.compiledRealtimeNs(), Clock.MILLIS));
        }
        // After the cost: the lag is measured only where the clock would be chosen (WorthMeasuring).
        why = coarseLagProblem(in, named);
        if (why != null) {
            return Candidate.no(why);
        }
        long lag = coarseLagNs(in);
        String what = Reasons.coarseMillisViaJni(ns, in.measured.coarseResolutionNs(), lag, lagNote(in));
        return Candidate.yes(new Choice(Backend.COARSE, Reasons.joined(prefix, Reasons.uses(Clock.MILLIS, what))
                + (unconfirmed ? Reasons.unconfirmed(in.measured.realtimeNs(), Clock.MILLIS) : ""), lag, unconfirmed));
    }

    /** The L a coarse millis states here: from the lag measured at start, or two ticks where none was measured. */
    private static long coarseLagNs(DecisionInputs in) {
        long res = in.measured.coarseResolutionNs();
        long measured = in.measured.coarseLagNs();
        return measured == Measurements.UNKNOWN_LAG ? CoarseLag.floorNs(res) : CoarseLag.statedNs(res, measured);
    }

    /** How the coarse clock's L came about. */
    private static String lagNote(DecisionInputs in) {
        long measured = in.measured.coarseLagNs();
        return measured == Measurements.UNKNOWN_LAG ? Reasons.LAG_NOT_MEASURED_NOTE : Reasons.lagMeasuredNote(measured);
    }

    /**
     * Why the coarse clock's lag cannot be stated, or null. auto and mode=on need it measured and
     * within the cap; a coarse clock named by the user takes two ticks where it was not measured,
     * and is refused like any other when the measured lag is over the cap.
     */
    private static String coarseLagProblem(DecisionInputs in, boolean named) {
        long res = in.measured.coarseResolutionNs();
        long measured = in.measured.coarseLagNs();
        if (measured == Measurements.UNKNOWN_LAG) {
            return named ? null : Reasons.COARSE_LAG_NOT_MEASURED;
        }
        long stated = CoarseLag.statedNs(res, measured);
        if (!CoarseLag.withinCap(res, stated)) {
            return Reasons.coarseLagOverCap(measured, stated, CoarseLag.capNs(res));
        }
        return null;
    }

    private static Candidate tsc(DecisionInputs in, boolean requireFaster, String prefix) {
        if (in.tscBlocker != null) {
            return Candidate.no(in.tscBlocker);
        }
        double ns = in.measured.tscMillisNs();
        boolean unconfirmed = requireFaster && ChoiceRules.unconfirmed(ns, in.measured.realtimeNs());
        if (requireFaster && !unconfirmed && !ChoiceRules.faster(ns, in.measured.compiledRealtimeNs())) {
            return Candidate.no(Reasons.notFaster(Reasons.TSC_CLOCK, ns, in.measured.compiledRealtimeNs(), Clock.MILLIS));
        }
        long lag = DecisionMaker.statedMillisLagNs(Backend.TSC, in.measured.coarseResolutionNs());
        return Candidate.yes(new Choice(Backend.TSC, Reasons.joined(prefix, Reasons.uses(Clock.MILLIS, Reasons.tscMillis(ns, lag)))
                + (unconfirmed ? Reasons.unconfirmed(in.measured.realtimeNs(), Clock.MILLIS) : ""), lag, unconfirmed));
    }

    /** @param named requested by name: JNA measured slower than the system clock is then still allowed */
    private static Candidate jna(DecisionInputs in, boolean requireFaster, boolean named, String prefix) {
        String why = ChoiceRules.coarseProblem(in, Reasons.REALTIME_COARSE, in.libraries.jnaAvailable(),
                Reasons.jnaUnavailable(in.libraries.jnaProblem()));
        if (why == null) {
            why = coarseLagProblem(in, named);
        }
        if (why != null) {
            return Candidate.no(why);
        }
        double ns = in.measured.jnaCoarseNs();
        double systemNs = in.measured.compiledRealtimeNs();
        if (requireFaster && !ChoiceRules.faster(ns, systemNs)) {
            return Candidate.no(Reasons.jnaNotFaster(ns));
        }
        if (!named && !Double.isNaN(ns) && !Double.isNaN(systemNs) && ns >= systemNs) {
            return Candidate.no(Reasons.jnaNoCheaper(ns));
        }
        long lag = coarseLagNs(in);
        String what = Reasons.coarseMillisViaJna(ns, in.measured.coarseResolutionNs(), lag, lagNote(in));
        return Candidate.yes(new Choice(Backend.JNA_COARSE, Reasons.joined(prefix, Reasons.uses(Clock.MILLIS, what)), lag));
    }
}
