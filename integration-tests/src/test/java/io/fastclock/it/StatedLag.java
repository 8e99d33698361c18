package io.fastclock.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The lag L a coarse currentTimeMillis states, as its stderr says it: the start line's ("resolution
 * R ms, lag up to L ms") and each L restated while running ("lag restated: up to L ms", which may come
 * before the application's main begins).
 */
final class StatedLag {
    /** The line the lag watch writes when it gives the coarse clock up, past the cap. */
    static final String GIVEN_UP = "currentTimeMillis moved back to the system clock for good";
    private static final Pattern START = Pattern.compile("currentTimeMillis resolution ([0-9]+) ms, lag up to ([0-9]+) ms");
    private static final Pattern RESTATED = Pattern.compile("lag restated: up to ([0-9]+) ms");
    /** log=debug's start-up line: what the agent's measurement found, before any margin. */
    private static final Pattern MEASURED = Pattern.compile("CLOCK_REALTIME_COARSE found up to (-?[0-9]+\\.[0-9]{6}) ms behind");
    private static final Pattern GAVE_UP = Pattern.compile(GIVEN_UP + ": the coarse clock was read ([0-9.]+) (ms|us) behind"
            + " CLOCK_REALTIME, beyond its stated lag of ([0-9]+) ms and the ([0-9]+) ms it may grow to");

    final long resolutionMs;
    final long startMs;
    final List<Long> restatedMs;

    private StatedLag(long resolutionMs, long startMs, List<Long> restatedMs) {
        this.resolutionMs = resolutionMs;
        this.startMs = startMs;
        this.restatedMs = restatedMs;
    }

    static StatedLag of(ForkedJvm.Result r) {
        Matcher start = START.matcher(r.stderr);
        assertTrue(start.find(), "no start line stating the millis resolution and lag\n" + r);
        List<Long> restated = new ArrayList<>();
        for (Matcher m = RESTATED.matcher(r.stderr); m.find(); ) {
            restated.add(Long.parseLong(m.group(1)));
        }
        return new StatedLag(Long.parseLong(start.group(1)), Long.parseLong(start.group(2)), restated);
    }

    /** The L the application read (fastclock.millisLagMs) is one the agent stated: at start or restated. */
    void assertPublished(long appLagMs, ForkedJvm.Result r) {
        assertTrue(appLagMs == startMs || restatedMs.contains(appLagMs),
                "the application read L = " + appLagMs + " ms, which the agent never stated (start " + startMs
                        + " ms, restated " + restatedMs + ")\n" + r);
    }

    /**
     * The start line's L is the lag the agent measured plus one tick, rounded up to a whole ms, and at
     * least two ticks (docs/CONTRACT.md, millis.lag): an L stated with more margin than that is as wrong
     * as one with less. Needs log=debug, whose start-up line says what the measurement found.
     *
     * @return the measured lag, in ns
     */
    long assertStartIsTheMeasuredLagPlusATick(ForkedJvm.Result r) {
        Matcher m = MEASURED.matcher(r.stderr);
        assertTrue(m.find(), "no start-up line saying what the coarse lag measurement found\n" + r);
        long measuredNs = Math.round(Double.parseDouble(m.group(1)) * 1e6);
        long tickNs = resolutionMs * 1_000_000L;
        long expectedMs = Math.max(2 * resolutionMs, (Math.max(measuredNs, 0) + tickNs + 999_999L) / 1_000_000L);
        assertEquals(expectedMs, startMs, "L = " + startMs + " ms is not the measured " + m.group(1) + " ms plus a tick of "
                + resolutionMs + " ms (at least two ticks)\n" + r);
        return measuredNs;
    }

    /**
     * The watch's line giving the coarse clock up (once) is justified by what it says: a read beyond
     * the stated lag, whose lag plus a tick is beyond the cap (CoarseLag.afterRead). A watch giving up
     * on a read within L, or one that a restatement would have covered, fails here.
     */
    void assertGivenUpPastTheCap(ForkedJvm.Result r) {
        Matcher m = GAVE_UP.matcher(r.stderr);
        assertTrue(m.find(), "no line giving the coarse clock up\n" + r);
        double behindMs = Double.parseDouble(m.group(1)) / (m.group(2).equals("us") ? 1000 : 1);
        long lagMs = Long.parseLong(m.group(3));
        long capMs = Long.parseLong(m.group(4));
        assertTrue(behindMs > lagMs, "the coarse clock was given up on a read within its lag: " + m.group() + "\n" + r);
        assertTrue(behindMs + resolutionMs > capMs, "the coarse clock was given up although restating L covered the read: "
                + m.group() + "\n" + r);
        assertTrue(lagMs == startMs || restatedMs.contains(lagMs), "the give-up line names an L never stated\n" + r);
        assertFalse(m.find(), "the coarse clock was given up twice\n" + r);
    }

    /** Besides the start line, the agent said nothing but restatements of L. */
    static void assertStartLineAndRestatementsOnly(ForkedJvm.Result r) {
        List<String> lines = r.agentLines();
        assertTrue(!lines.isEmpty() && START.matcher(lines.get(0)).find(), "no start line first\n" + r);
        for (String line : lines.subList(1, lines.size())) {
            assertTrue(RESTATED.matcher(line).find(), "an agent line that is not a restated lag: " + line + "\n" + r);
        }
        for (String line : r.stderr.split("\n")) {
            assertTrue(line.isEmpty() || line.startsWith("fastclock: "), "stderr line not from the agent: " + line + "\n" + r);
        }
    }
}
