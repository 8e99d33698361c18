package io.fastclock.examples;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Locale;

/**
 * The machine's 1-minute load average (/proc/loadavg) while the demo runs: how much else wanted the
 * CPUs. Remembers the first, the last and the highest reading.
 */
final class LoadAverage {

    static final Path PROC = Paths.get("/proc/loadavg");

    private final Path file;
    private double first = Double.NaN;
    private double last = Double.NaN;
    private double highest = Double.NaN;

    LoadAverage(Path file) {
        this.file = file;
    }

    /** Reads it now: NaN where it cannot be read. */
    double read() {
        double now = oneMinute(file);
        if (!Double.isNaN(now)) {
            if (Double.isNaN(first)) {
                first = now;
            }
            last = now;
            highest = Double.isNaN(highest) ? now : Math.max(highest, now);
        }
        return now;
    }

    /** "0.52 at the start, 2.31 at the end, 2.40 at most, on 2 processors". */
    String summary(int processors) {
        if (Double.isNaN(first)) {
            return "unknown (" + file + " cannot be read)";
        }
        return format(first) + " at the start, " + format(last) + " at the end, " + format(highest) + " at most, on "
                + processors + " processors";
    }

    static double oneMinute(Path file) {
        try {
            String text = new String(Files.readAllBytes(file), StandardCharsets.US_ASCII).trim();
            return Double.parseDouble(text.split("\\s+")[0]);
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }

    static String format(double load) {
        return Double.isNaN(load) ? "?" : String.format(Locale.ROOT, "%.2f", load);
    }
}
