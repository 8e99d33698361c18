package io.fastclock.examples;

import java.util.Locale;

/**
 * How much faster one set-up ran a row than another, stated only where the rounds can tell. The ratio
 * of the medians comes with its range, from the rounds least and most favourable to it; it is given
 * only where that spread is smaller than the difference: the range lies wholly on one side of 1x, and
 * on a log scale its half-width is less than the ratio's distance from 1x (high / low &lt; ratio²).
 * Otherwise the rounds cannot tell the set-ups apart, and it says so.
 */
final class Comparison {

    static final String NOT_COMPARABLE = "not comparable on this machine now";

    private Comparison() {}

    /**
     * The candidate's speed against the base's, e.g. "6.9x faster (6.1x to 7.8x)", or
     * {@link #NOT_COMPARABLE}. Both spreads hold time per operation, so a smaller one is faster.
     */
    static String of(Spread base, Spread candidate) {
        if (base.rounds() < 2 || candidate.rounds() < 2) {
            return NOT_COMPARABLE;
        }
        double ratio = base.median() / candidate.median();
        double low = base.min() / candidate.max();
        double high = base.max() / candidate.min();
        boolean oneSide = low > 1 || high < 1;
        double difference = Math.abs(Math.log(ratio));
        double spread = (Math.log(high) - Math.log(low)) / 2;
        if (!oneSide || !(spread < difference)) {
            return NOT_COMPARABLE;
        }
        if (ratio > 1) {
            return factor(ratio) + " faster (" + factor(low) + " to " + factor(high) + ")";
        }
        return factor(1 / ratio) + " slower (" + factor(1 / high) + " to " + factor(1 / low) + ")";
    }

    /** "12x", "6.9x", "1.04x": two significant figures. */
    static String factor(double x) {
        String digits = x >= 10 ? "%.0f" : x >= 2 ? "%.1f" : "%.2f";
        return String.format(Locale.ROOT, digits + "x", x);
    }
}
