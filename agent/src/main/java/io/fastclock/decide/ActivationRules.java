package io.fastclock.decide;

import io.fastclock.config.Settings;

/**
 * The rules of activation.off and activation.auto (docs/CONTRACT.md) that are asked before anything is
 * measured as well as in the decision, each written once: {@link DecisionMaker} decides with them,
 * and the agent's two shortcuts ask them before the probe runs (FastclockAgent on {@code mode=off},
 * {@link FastSystemClocksCheck} on a machine whose system clocks are fast). Kept small and free of
 * other classes, as the agent loads it on those cheap paths; their lines are {@link Reasons}'
 * ({@link Reasons#OFF_LINE} is a constant, so mode=off loads no more for it).
 */
public final class ActivationRules {
    private ActivationRules() {}

    /** activation.off: nothing is installed and nothing rewritten. */
    public static boolean off(Settings settings) {
        return settings.mode() == Settings.Mode.OFF;
    }

    /** Every choice left to auto: only then does "the system clocks are fast" alone make the agent inactive. */
    public static boolean everythingAuto(Settings settings) {
        return settings.mode() == Settings.Mode.AUTO && settings.millis() == Settings.Millis.AUTO
                && settings.nanos() == Settings.Nanos.AUTO;
    }

    /**
     * Whether a system clock is slow, so that auto looks for a faster backend: a clocksource known to
     * be slow, or the clock's cost over the threshold (an unmeasured cost is not over it).
     */
    public static boolean slow(boolean clocksourceKnownSlow, double costNs, long thresholdNs) {
        return clocksourceKnownSlow || costNs > thresholdNs;
    }

    /**
     * Whether auto stays off because both system clocks are fast: everything left to auto, and both
     * costs measured and neither clock slow. An upper bound of a cost (as the shortcut times it,
     * interpreted) that passes this means the cost itself does.
     */
    public static boolean fastHere(Settings settings, boolean clocksourceKnownSlow, double millisNs, double nanosNs) {
        return everythingAuto(settings) && !Double.isNaN(millisNs) && !Double.isNaN(nanosNs)
                && !slow(clocksourceKnownSlow, millisNs, settings.thresholdNs())
                && !slow(clocksourceKnownSlow, nanosNs, settings.thresholdNs());
    }
}
