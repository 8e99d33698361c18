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

    /**
     * The system clock's cost, timed in C, from which a candidate whose cost from compiled Java busy CPUs
     * kept from being measured is taken all the same: twice the dearest JNI call of a clock seen (about
     * 120 ns, in an emulated guest). Under it, unmeasured is not faster; over it, no JNI transition makes
     * up the difference, and a verdict lost to busy CPUs (or to the application's own reads of a
     * serialised clock) would leave the slowest clocks in place. The agent measures again later.
     */
    static final double UNCONFIRMED_SYSTEM_NS = 300;

    /** Unmeasured from compiled Java, against a system clock timed in C at {@link #UNCONFIRMED_SYSTEM_NS} or more. */
    static boolean unconfirmed(double candidateNs, double systemNsInC) {
        return Double.isNaN(candidateNs) && !Double.isNaN(systemNsInC) && systemNsInC >= UNCONFIRMED_SYSTEM_NS;
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
