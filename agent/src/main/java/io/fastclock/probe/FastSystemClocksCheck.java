package io.fastclock.probe;

import io.fastclock.config.Settings;
import java.util.ArrayList;

/**
 * The cheap way to the answer {@code auto} gives on most machines: the system clocks are fast, so
 * nothing is installed. Runs before the runtime is put in the boot loader or the native library is
 * loaded, and answers only when the answer is certain: everything left to {@code auto}, a
 * clocksource that is readable and not known to be slow, and both system clocks timed under the
 * threshold. Timed here, interpreted, a call costs the clock read plus the interpreter's loop and
 * call overhead, so the time is an upper bound of what compiled code pays. Anything else (a
 * setting named, a slow or unknown clocksource, a time over the threshold) takes the full probe.
 */
public final class FastSystemClocksCheck {
    static final int BATCHES = 5;
    static final int CALLS_PER_BATCH = 200;
    private static long sink;

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
        double millisNs = upperBoundNanosPerCall(true, threshold);
        double nanosNs = upperBoundNanosPerCall(false, threshold);
        if (!ActivationRules.fastHere(settings, false, millisNs, nanosNs)) {
            return null;
        }
        return ActivationRules.fastHereLine(clocksource, Math.round(millisNs) + " ns",
                Math.round(nanosNs) + " ns at most (timed before compilation)", threshold);
    }

    /**
     * The fastest of a few batches, so a preempted batch does not count; stops once a batch after
     * the first is under the threshold, since one such batch already bounds the cost.
     */
    static double upperBoundNanosPerCall(boolean millis, long thresholdNs) {
        long best = Long.MAX_VALUE;
        long acc = 0;
        for (int batch = 0; batch < BATCHES; batch++) {
            long start = System.nanoTime();
            if (millis) {
                for (int i = 0; i < CALLS_PER_BATCH; i++) {
                    acc += System.currentTimeMillis();
                }
            } else {
                for (int i = 0; i < CALLS_PER_BATCH; i++) {
                    acc += System.nanoTime();
                }
            }
            best = Math.min(best, System.nanoTime() - start);
            if (batch >= 1 && best <= thresholdNs * CALLS_PER_BATCH) { // the first batch also links the call
                break;
            }
        }
        sink += acc;
        return (double) best / CALLS_PER_BATCH;
    }
}
