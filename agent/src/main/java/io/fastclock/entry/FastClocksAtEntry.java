package io.fastclock.entry;

import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * The answer {@code auto} gives on most machines, found before the agent's module, the native
 * library or any observer exists: the system clocks are fast, so fastclock stays out. The rule and
 * the line are io.fastclock.decide.FastSystemClocksCheck's (the module's copy, which answers for an
 * attach and for settings that are not plain; a unit test holds the two together): a clocksource that
 * is readable and not known to be slow, and both system clocks timed, interpreted, at or under the
 * threshold. Interpreted, a call costs the clock read plus the
 * interpreter's loop, so the time is an upper bound of what compiled code pays.
 */
final class FastClocksAtEntry {
    /** io.fastclock.probe.MachineFacts.KNOWN_SLOW_CLOCKSOURCES. */
    static final String[] KNOWN_SLOW_CLOCKSOURCES = {"hpet", "acpi_pm", "xen", "jiffies", "refined-jiffies", "pit"};
    static final String CURRENT_CLOCKSOURCE = "/devices/system/clocksource/clocksource0/current_clocksource";
    private static final int SYSFS_CAP = 64 * 1024;
    private static final int BATCHES = 5;
    private static final int CALLS_PER_BATCH = 200;
    private static long sink;

    private FastClocksAtEntry() {}

    /**
     * @return the agent's inactive line where the system clocks are fast here (the entry answers with it
     *     alone where the settings are plain), or null when they are not, or not known to be
     */
    static String fastLine(EntrySettings settings) {
        String clocksource = currentClocksource(settings.sysfs());
        if (clocksource == null) {
            return null;
        }
        for (String slow : KNOWN_SLOW_CLOCKSOURCES) {
            if (slow.equals(clocksource)) {
                return null;
            }
        }
        long threshold = settings.thresholdNs();
        double millisNs = upperBoundNanosPerCall(true, threshold);
        if (millisNs > threshold) {
            return null; // not fast: nanoTime's timing would change nothing (and costs most where it is slow)
        }
        double nanosNs = upperBoundNanosPerCall(false, threshold);
        if (nanosNs > threshold) {
            return null;
        }
        return "fastclock: inactive: system clocks are fast here (clocksource " + clocksource + "; currentTimeMillis "
                + Math.round(millisNs) + " ns, nanoTime " + Math.round(nanosNs) + " ns at most (timed before compilation); threshold " + threshold + " ns)";
    }

    /** The current clocksource's name, or null where it cannot be read or is not a clocksource name. */
    static String currentClocksource(String sysfs) {
        File file = new File(sysfs + CURRENT_CLOCKSOURCE);
        if (!file.isFile()) { // a FIFO would block the open
            return null;
        }
        byte[] buffer = new byte[SYSFS_CAP + 1];
        int length = 0;
        try (InputStream in = new FileInputStream(file)) {
            for (int n; length < buffer.length && (n = in.read(buffer, length, buffer.length - length)) > 0; ) {
                length += n;
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
        if (length > SYSFS_CAP) {
            return null;
        }
        String name = EntryLines.latin1(buffer, 0, length).trim();
        if (name.isEmpty()) {
            return null;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-')) {
                return null;
            }
        }
        return name;
    }

    /**
     * The fastest of a few batches, so a preempted batch does not count; stops once a batch after the
     * first is under the threshold, since one such batch already bounds the cost.
     */
    private static double upperBoundNanosPerCall(boolean millis, long thresholdNs) {
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
