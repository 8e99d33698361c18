package io.fastclock.decide;

import java.util.List;

/** What the choices of both clocks share: when a coarse clock can be used, and what "faster" means. */
final class ChoiceRules {
    private ChoiceRules() {}

    /**
     * Why a coarse clock cannot be used, or null: its library is not there, or its resolution is
     * unknown or coarser than {@link DecisionMaker#MAX_COARSE_RESOLUTION_NS}.
     *
     * @param clock CLOCK_REALTIME_COARSE or CLOCK_MONOTONIC_COARSE
     * @param unreachable why its library is not there
     */
    static String coarseProblem(DecisionInputs in, String clock, boolean reachable, String unreachable) {
        if (!reachable) {
            return unreachable;
        }
        long res = in.measured.coarseResolutionNs();
        if (res <= 0) {
            return Reasons.resolutionUnknown(clock);
        }
        if (res > DecisionMaker.MAX_COARSE_RESOLUTION_NS) {
            return Reasons.tooCoarse(clock, res, DecisionMaker.MAX_COARSE_RESOLUTION_NS);
        }
        return null;
    }

    /** Measured and cheaper; an unmeasured cost is never "faster". */
    static boolean faster(double candidateNs, double systemNs) {
        return !Double.isNaN(candidateNs) && !Double.isNaN(systemNs) && candidateNs < systemNs;
    }

    /** Both measured, and the candidate dearer: a backend named by the user then says so. */
    static boolean measuredSlower(double candidateNs, double systemNs) {
        return !Double.isNaN(candidateNs) && !Double.isNaN(systemNs) && candidateNs > systemNs;
    }

    static void addDistinct(List<String> list, String s) {
        if (!list.contains(s)) {
            list.add(s);
        }
    }
}
