package io.fastclock.it;

import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assumptions;

/**
 * What a test cannot know on a busy host: where busy CPUs cut the agent's measurement short at start,
 * the agent says so ("fastclock: undecided: ...") and decides later (activation.busy, which BusyCpusIT
 * proves), so a test that needs the verdict before main cannot judge that run. It ends skipped, saying
 * so, rather than failing on what the contract allows.
 */
final class BusyHost {
    static final String UNDECIDED = "fastclock: undecided:";

    private BusyHost() {}

    /** The agent's lines less its "undecided" notice, which busy CPUs at start add before the verdict. */
    static List<String> withoutUndecided(List<String> agentLines) {
        return agentLines.stream().filter(l -> !l.startsWith(UNDECIDED)).collect(Collectors.toList());
    }

    /** Skips the test when the agent deferred its verdict past main's start (busy CPUs). */
    static void assumeDecidedBeforeMain(ForkedJvm.Result r) {
        Assumptions.assumeFalse(r.stderr.contains(UNDECIDED),
                () -> "[fastclock-it] the CPUs were busy at start: the agent decided after main began, and this test needs"
                        + " its verdict before: " + r.agentLines());
    }
}
