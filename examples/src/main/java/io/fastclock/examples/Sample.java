package io.fastclock.examples;

import java.util.Locale;

/**
 * What one set-up's JVM measured at one point in one round, as {@link RoundServer} answers it:
 * the time per operation and thread, the stamps seen going backwards, and the agent's state
 * ({@code fastclock.active}, null before its verdict or without it) when the round began and ended.
 */
final class Sample {

    final double nanosPerOp;
    final long backwards;
    final String agentBefore;
    final String agentAfter;

    Sample(double nanosPerOp, long backwards, String agentBefore, String agentAfter) {
        this.nanosPerOp = nanosPerOp;
        this.backwards = backwards;
        this.agentBefore = agentBefore;
        this.agentAfter = agentAfter;
    }

    /** The answer's words after "sample". */
    String words() {
        return String.format(Locale.ROOT, "%s %d %s %s", Double.toString(nanosPerOp), backwards, word(agentBefore),
                word(agentAfter));
    }

    static Sample parse(String words) {
        String[] w = words.trim().split(" ");
        if (w.length != 4) {
            throw new IllegalArgumentException("not a sample: '" + words + "'");
        }
        return new Sample(Double.parseDouble(w[0]), Long.parseLong(w[1]), state(w[2]), state(w[3]));
    }

    /** Taken while an agent had not yet decided: the round ran, at least in part, on the system clocks. */
    boolean beforeVerdict() {
        return agentBefore == null;
    }

    /** A state as one word: "-" for none. */
    static String word(String state) {
        return state == null || state.isEmpty() ? "-" : state.replace(' ', '_');
    }

    private static String state(String word) {
        return "-".equals(word) ? null : word;
    }
}
