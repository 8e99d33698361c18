package io.fastclock.decide;

import io.fastclock.config.Settings;
import io.fastclock.probe.InterpretedCost;
import io.fastclock.probe.MachineFacts;
import io.fastclock.probe.MachineReader;
import java.util.ArrayList;

/**
 * The cheap way to the answer {@code auto} gives on most machines: the system clocks are fast, so
 * nothing is installed. Runs before the runtime is put in the boot loader or the native library is
 * loaded, and answers only when the answer is certain: everything left to {@code auto}, a
 * clocksource that is readable and not known to be slow, and both system clocks timed under the
 * threshold ({@link InterpretedCost}: an upper bound of what compiled code pays). Anything else (a
 * setting named, a slow or unknown clocksource, a time over the threshold) takes the full probe.
 * A decision, so it lives here; the measuring it uses lives in probe, and entry.FastClocksAtEntry
 * keeps a copy of the rule (entry may use no other package; a unit test holds the two together).
 */
public final class FastSystemClocksCheck {
    private FastSystemClocksCheck() {}

    /**
     * The decision's own rule ({@link ActivationRules#fastHere}) on the upper bounds timed here.
     *
     * @return the agent's inactive line, or null when the full probe must decide
     */
    public static String inactiveLine(Settings settings) {
        // A library named is to be loaded and reported on: the full probe does that.
        if (!ActivationRules.everythingAuto(settings) || settings.library() != null) {
            return null;
        }
        String clocksource = new MachineReader(settings.sysfsRoot(), settings.procfsRoot())
                .readCurrentClocksource(new ArrayList<>());
        if (clocksource == null || MachineFacts.KNOWN_SLOW_CLOCKSOURCES.contains(clocksource)) {
            return null;
        }
        long threshold = settings.thresholdNs();
        double millisNs = InterpretedCost.upperBoundNanosPerCall(true, threshold);
        double nanosNs = InterpretedCost.upperBoundNanosPerCall(false, threshold);
        if (!ActivationRules.fastHere(settings, false, millisNs, nanosNs)) {
            return null;
        }
        return Reasons.fastHereLine(clocksource, Reasons.roundNs(millisNs), Reasons.interpretedBound(nanosNs), threshold);
    }
}
