package io.fastclock.examples;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** One set-up's rounds at one point: their median, their range, and how wide that is. */
final class Spread {

    private final double[] sorted;

    private Spread(double[] sorted) {
        this.sorted = sorted;
    }

    /** The rounds' figures; a round without one (NaN: a thread finished no operation) is left out. */
    static Spread of(List<Double> figures) {
        return new Spread(figures.stream().filter(f -> !f.isNaN()).mapToDouble(Double::doubleValue).sorted().toArray());
    }

    int rounds() {
        return sorted.length;
    }

    double median() {
        int n = sorted.length;
        if (n == 0) {
            return Double.NaN;
        }
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    double min() {
        return sorted.length == 0 ? Double.NaN : sorted[0];
    }

    double max() {
        return sorted.length == 0 ? Double.NaN : sorted[sorted.length - 1];
    }

    /** Half the range, as a share of the median. */
    double halfRange() {
        return (max() - min()) / 2 / median();
    }

    /** "48.5 ±3%": the median, ± half the range; one round has no spread to state. */
    String figure() {
        if (sorted.length == 0) {
            return "-";
        }
        String median = Report.nanos(median());
        if (sorted.length == 1) {
            return median + " (1 round)";
        }
        return median + String.format(Locale.ROOT, " ±%.0f%%", 100 * halfRange());
    }

    @Override
    public String toString() {
        return Arrays.toString(sorted);
    }
}
