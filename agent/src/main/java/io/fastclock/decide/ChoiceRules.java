package io.fastclock.decide;

import java.util.List;

/** What the choices of both clocks share: when a coarse clock can be used, what "faster" means, and how they say it. */
final class ChoiceRules {
    private ChoiceRules() {}

    /** Why a coarse clock cannot be used, or null. */
    static String coarseProblem(DecisionInputs in, String clock, boolean reachable, String unreachable) {
        if (!reachable) {
            return unreachable;
        }
        long res = in.measured.coarseResolutionNs();
        if (res <= 0) {
            return "the resolution of " + clock + " is unknown, so its lag cannot be stated";
        }
        if (res > DecisionMaker.MAX_COARSE_RESOLUTION_NS) {
            return clock + " ticks only every " + DecisionMaker.ms(res) + ", coarser than the " + DecisionMaker.ms(DecisionMaker.MAX_COARSE_RESOLUTION_NS)
                    + " accepted";
        }
        return null;
    }

    /**
     * "the TSC clock was not measurably faster from compiled Java (250 ns a read against 130 ns for
     * System.currentTimeMillis)", or "... (unmeasured)".
     */
    static String notFaster(String what, double candidateNs, double systemNs, String clock) {
        String numbers = Double.isNaN(candidateNs) ? "unmeasured"
                : Double.isNaN(systemNs) ? DecisionMaker.ns(candidateNs) + " a read; " + clock + " unmeasured"
                : DecisionMaker.ns(candidateNs) + " a read against " + DecisionMaker.ns(systemNs) + " for " + clock;
        return what + " was not measurably faster from compiled Java (" + numbers + ")";
    }

    /** "System.currentTimeMillis costs 24 ns here (clocksource tsc), under the 100 ns threshold". */
    static String notSlow(DecisionInputs in, String clock, double ns) {
        if (Double.isNaN(ns)) {
            return clock + " was not measured and clocksource " + in.machine.clocksourceForDisplay()
                    + " is not known to be slow";
        }
        return in.cost(clock, ns) + ", under the " + in.settings.thresholdNs() + " ns threshold";
    }

    /** A note when an explicitly requested backend was measured slower than the system clock, else null. */
    static String slowerNote(String name, String key, double candidateNs, String clock, double systemNs) {
        if (Double.isNaN(candidateNs) || Double.isNaN(systemNs) || candidateNs <= systemNs) {
            return null;
        }
        return key + "=" + name + " is honoured because it was requested, but it costs " + DecisionMaker.ns(candidateNs)
                + " a read here against " + DecisionMaker.ns(systemNs) + " for " + clock;
    }

    /** " It costs 160 ns a read here against 24 ns for System.currentTimeMillis." or "". */
    static String slowerSentence(double candidateNs, String clock, double systemNs) {
        if (Double.isNaN(candidateNs) || Double.isNaN(systemNs) || candidateNs <= systemNs) {
            return "";
        }
        return " It costs " + DecisionMaker.ns(candidateNs) + " a read here against " + DecisionMaker.ns(systemNs) + " for " + clock + ".";
    }

    static void addDistinct(List<String> list, String s) {
        if (!list.contains(s)) {
            list.add(s);
        }
    }

    /** Measured and cheaper; an unmeasured cost is never "faster". */
    static boolean faster(double candidateNs, double systemNs) {
        return !Double.isNaN(candidateNs) && !Double.isNaN(systemNs) && candidateNs < systemNs;
    }

    static String sentence(String prefix, String rest) {
        if (prefix == null) {
            return rest;
        }
        return prefix + "; " + rest;
    }

    static String paren(String problem) {
        return problem == null || problem.isEmpty() ? "" : " (" + problem + ")";
    }
}
