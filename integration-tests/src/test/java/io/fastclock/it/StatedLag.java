package io.fastclock.it;

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
