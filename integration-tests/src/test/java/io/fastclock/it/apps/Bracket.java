package io.fastclock.it.apps;

/**
 * A clock value checked against the reference read just before it and just after it: the caller
 * reads {@code before} (or passes {@link ReferenceClocks#millis()} as the argument left of the
 * value: Java evaluates arguments left to right), then the value; the check reads {@code after}. A
 * thread preempted anywhere between the reads widens the bracket; it cannot fail the check.
 */
public final class Bracket {
    private Bracket() {}

    /** Null when before - behindMs <= value <= after + aheadMs; else what failed, named by {@code check}. */
    public static String millis(String check, long before, long value, long behindMs, long aheadMs) {
        return within(check, before, value, ReferenceClocks.millis(), behindMs, aheadMs, "ms");
    }

    /** Null when before - behindNs <= value <= after + aheadNs; else what failed, named by {@code check}. */
    public static String nanos(String check, long before, long value, long behindNs, long aheadNs) {
        return within(check, before, value, ReferenceClocks.nanos(), behindNs, aheadNs, "ns");
    }

    private static String within(String check, long before, long value, long after, long behind, long ahead, String unit) {
        if (value >= before - behind && value <= after + ahead) {
            return null;
        }
        return check + ": " + value + " outside [" + (before - behind) + ", " + (after + ahead) + "] (reference "
                + before + " before, " + after + " after; " + behind + " " + unit + " behind, " + ahead + " " + unit
                + " ahead allowed)";
    }
}
