package io.fastclock.decide;

import io.fastclock.config.Backend;
import io.fastclock.config.Settings;
import io.fastclock.probe.Measurements;
import java.util.ArrayList;
import java.util.List;

/**
 * The backend for System.currentTimeMillis: a backend named by {@code millis=} when it is safe, else
 * auto's order (the coarse clock through JNI when it ticks every 1 ms or finer; else the TSC clock;
 * else the coarse clock through JNI with its lag stated; else through JNA; else the system clock).
 */
final class MillisChoice {
    private MillisChoice() {}

    static Choice choose(DecisionInputs in, List<String> warnings) {
        double sys = in.measured.realtimeNs();
        switch (in.settings.millis()) {
            case SYSTEM:
                return new Choice(Backend.SYSTEM,
                        "millis=system was requested, so currentTimeMillis stays on the system clock.", 0);
            case COARSE:
                return explicit(in, Backend.COARSE.settingName(), coarse(in, false, true, null), in.measured.realtimeCoarseNs(), warnings);
            case TSC:
                return explicit(in, Backend.TSC.settingName(), tsc(in, false, null), in.measured.tscNs(), warnings);
            case JNA_COARSE:
                return explicit(in, Backend.JNA_COARSE.settingName(), jna(in, false, true, null), in.measured.jnaCoarseNs(), warnings);
            case AUTO:
            default:
                break;
        }
        boolean on = in.settings.mode() == Settings.Mode.ON;
        if (!on && !in.millisSlow) {
            return new Choice(Backend.SYSTEM, ChoiceRules.notSlow(in, DecisionMaker.MILLIS, sys) + ", so currentTimeMillis stays on the system clock.", 0);
        }
        boolean requireFaster = !on;
        String prefix = (on ? "mode=on: " : "") + in.cost(DecisionMaker.MILLIS, sys);
        List<String> whyNot = new ArrayList<>();
        long res = in.measured.coarseResolutionNs();

        boolean fineCoarse = in.libraries.jniLoaded() && res > 0 && res <= 1_000_000L;
        if (fineCoarse) {
            Candidate e = coarse(in, requireFaster, false, prefix);
            if (e.choice != null) {
                return e.choice;
            }
            ChoiceRules.addDistinct(whyNot, e.whyNot);
        }
        String coarseNote = !in.libraries.jniLoaded() ? null
                : res > 0 ? "the coarse clock ticks only every " + DecisionMaker.ms(res)
                : "the coarse clock's resolution is unknown";
        Candidate tsc = tsc(in, requireFaster, prefix + (coarseNote == null ? "" : "; " + coarseNote));
        if (tsc.choice != null) {
            return tsc.choice;
        }
        ChoiceRules.addDistinct(whyNot, tsc.whyNot);
        if (!fineCoarse) {
            Candidate e = coarse(in, requireFaster, false, prefix + "; the TSC clock is not used because " + tsc.whyNot);
            if (e.choice != null) {
                return e.choice;
            }
            ChoiceRules.addDistinct(whyNot, e.whyNot);
        }
        String jniWhyNot = in.libraries.jniLoaded()
                ? "no clock through the JNI library can be used (" + String.join("; ", whyNot) + ")"
                : "the native library did not load" + ChoiceRules.paren(in.libraries.jniProblem());
        Candidate jna = jna(in, requireFaster, false, prefix + "; " + jniWhyNot);
        if (jna.choice != null) {
            return jna.choice;
        }
        ChoiceRules.addDistinct(whyNot, jna.whyNot);
        return new Choice(Backend.SYSTEM, prefix + ", but no faster clock can be used: " + String.join("; ", whyNot)
                + "; so currentTimeMillis stays on the system clock.", 0);
    }

    /** An explicitly requested millis backend: honoured if it can be, else SYSTEM and a warning. */
    private static Choice explicit(DecisionInputs in, String name, Candidate e, double candidateNs, List<String> warnings) {
        if (e.choice == null) {
            String text = "millis=" + name + " cannot be honoured: " + e.whyNot
                    + "; currentTimeMillis stays on the system clock";
            warnings.add(text);
            return new Choice(Backend.SYSTEM, text + ".", 0);
        }
        String slower = ChoiceRules.slowerNote(name, "millis", candidateNs, DecisionMaker.MILLIS, in.measured.compiledRealtimeNs());
        if (slower != null) {
            warnings.add(slower);
        }
        return new Choice(e.choice.backend(), "millis=" + name + " was requested: " + e.choice.reason()
                + ChoiceRules.slowerSentence(candidateNs, DecisionMaker.MILLIS, in.measured.compiledRealtimeNs()), e.choice.lagNs());
    }

    /**
     * CLOCK_REALTIME_COARSE through JNI for currentTimeMillis.
     *
     * @param prefix start of the reason sentence; null for a bare description (explicit request)
     */
    private static Candidate coarse(DecisionInputs in, boolean requireFaster, boolean explicit, String prefix) {
        String why = ChoiceRules.coarseProblem(in, "CLOCK_REALTIME_COARSE", in.libraries.jniLoaded(),
                "the native library did not load" + ChoiceRules.paren(in.libraries.jniProblem()));
        if (why != null) {
            return Candidate.no(why);
        }
        double ns = in.measured.realtimeCoarseNs();
        if (requireFaster && !ChoiceRules.faster(ns, in.measured.compiledRealtimeNs())) {
            return Candidate.no(ChoiceRules.notFaster("CLOCK_REALTIME_COARSE through JNI", ns, in.measured.compiledRealtimeNs(), DecisionMaker.MILLIS));
        }
        // After the cost: the lag is measured only where the clock would be chosen (MachineProbe).
        why = coarseLagProblem(in, explicit);
        if (why != null) {
            return Candidate.no(why);
        }
        long res = in.measured.coarseResolutionNs();
        long lag = coarseLagNs(in);
        String what = "CLOCK_REALTIME_COARSE through JNI (" + DecisionMaker.ns(ns) + " a read from compiled Java), which ticks every "
                + DecisionMaker.ms(res) + " and lags the system clock by up to " + DecisionMaker.ms(lag) + lagNote(in) + ".";
        return Candidate.yes(new Choice(Backend.COARSE, ChoiceRules.sentence(prefix, "currentTimeMillis uses " + what), lag));
    }

    /** The L a coarse millis states here: from the lag measured at start, or two ticks where none was measured. */
    private static long coarseLagNs(DecisionInputs in) {
        long res = in.measured.coarseResolutionNs();
        long measured = in.measured.coarseLagNs();
        return measured == Measurements.UNKNOWN_LAG ? CoarseLag.floorNs(res) : CoarseLag.statedNs(res, measured);
    }

    /** " (measured up to 3.2 ms behind at start-up, plus a tick)" or "". */
    private static String lagNote(DecisionInputs in) {
        long measured = in.measured.coarseLagNs();
        if (measured == Measurements.UNKNOWN_LAG) {
            return " (two ticks: its lag was not measured)";
        }
        return " (measured " + (measured <= 0 ? "never behind" : "up to " + DecisionMaker.ms(measured) + " behind")
                + " CLOCK_REALTIME, plus a tick of margin, at least two ticks)";
    }

    /**
     * Why the coarse clock's lag cannot be stated, or null. auto and mode=on need it measured and
     * within the cap; a coarse clock named by the user takes two ticks where it was not measured,
     * and is refused like any other when the measured lag is over the cap.
     */
    private static String coarseLagProblem(DecisionInputs in, boolean explicit) {
        long res = in.measured.coarseResolutionNs();
        long measured = in.measured.coarseLagNs();
        if (measured == Measurements.UNKNOWN_LAG) {
            return explicit ? null
                    : "the coarse clock's lag behind CLOCK_REALTIME was not measured, so its lag cannot be stated";
        }
        long stated = CoarseLag.statedNs(res, measured);
        if (!CoarseLag.withinCap(res, stated)) {
            return "CLOCK_REALTIME_COARSE was measured " + DecisionMaker.ms(measured) + " behind CLOCK_REALTIME, so its lag (" + DecisionMaker.ms(stated)
                    + " with a tick of margin) is over the " + DecisionMaker.ms(CoarseLag.capNs(res)) + " accepted";
        }
        return null;
    }

    private static Candidate tsc(DecisionInputs in, boolean requireFaster, String prefix) {
        if (in.tscBlocker != null) {
            return Candidate.no(in.tscBlocker);
        }
        double ns = in.measured.tscNs();
        if (requireFaster && !ChoiceRules.faster(ns, in.measured.compiledRealtimeNs())) {
            return Candidate.no(ChoiceRules.notFaster("the TSC clock", ns, in.measured.compiledRealtimeNs(), DecisionMaker.MILLIS));
        }
        long lag = DecisionMaker.statedMillisLagNs(Backend.TSC, in.measured.coarseResolutionNs());
        String what = "the TSC clock (" + DecisionMaker.ns(ns) + " a TSC read), which keeps within "
                + DecisionMaker.ms(lag) + " of the system clock.";
        return Candidate.yes(new Choice(Backend.TSC, ChoiceRules.sentence(prefix, "currentTimeMillis uses " + what), lag));
    }

    /** @param explicit requested by name: JNA measured slower than the system clock is then still allowed */
    private static Candidate jna(DecisionInputs in, boolean requireFaster, boolean explicit, String prefix) {
        String why = ChoiceRules.coarseProblem(in, "CLOCK_REALTIME_COARSE", in.libraries.jnaAvailable(),
                "JNA is not available" + ChoiceRules.paren(in.libraries.jnaProblem()));
        if (why == null) {
            why = coarseLagProblem(in, explicit);
        }
        if (why != null) {
            return Candidate.no(why);
        }
        double ns = in.measured.jnaCoarseNs();
        double sys = in.measured.compiledRealtimeNs();
        if (requireFaster && !ChoiceRules.faster(ns, sys)) {
            return Candidate.no("CLOCK_REALTIME_COARSE through JNA was not measurably faster (" + DecisionMaker.ns(ns) + ")");
        }
        if (!explicit && !Double.isNaN(ns) && !Double.isNaN(sys) && ns >= sys) {
            return Candidate.no("CLOCK_REALTIME_COARSE through JNA costs " + DecisionMaker.ns(ns) + ", no less than the system clock");
        }
        long res = in.measured.coarseResolutionNs();
        long lag = coarseLagNs(in);
        String what = "CLOCK_REALTIME_COARSE through JNA (" + DecisionMaker.ns(ns) + " a read), which ticks every " + DecisionMaker.ms(res)
                + " and lags the system clock by up to " + DecisionMaker.ms(lag) + lagNote(in) + ".";
        return Candidate.yes(new Choice(Backend.JNA_COARSE, ChoiceRules.sentence(prefix, "currentTimeMillis uses " + what), lag));
    }
}
