package io.fastclock.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fastclock.it.apps.SlowReadCountApp;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The simulator's read count, which other tests use to prove coverage, works and can fail: a JVM
 * without the agent makes at least one fine read per System.nanoTime() in the counted window; with
 * the agent (mode=on: nanoTime on the TSC clock) the same loop makes next to none. Both ways of
 * leaving the JVM (main returning, System.exit) write the counts.
 */
class SlowReadCountIT {
    static final int READS = 100_000;
    /** What the counted window may still read with the agent: a few reads, not one per call. */
    static final long MAX_READS_WITH_AGENT = READS / 1000;

    static List<Arguments> cases() {
        List<Arguments> cases = new ArrayList<>();
        for (Jdk jdk : Jdk.all()) {
            cases.add(Arguments.of(jdk, "return"));
            cases.add(Arguments.of(jdk, "exit"));
        }
        return cases;
    }

    @ParameterizedTest(name = "{0} main {1}")
    @MethodSource("cases")
    void withoutTheAgentEveryNanoTimeIsAFineRead(Jdk jdk, String howItEnds) throws Exception {
        SlowReadCount count = SlowReadCount.create();
        ForkedJvm.Result r = count.underSimulator(ForkedJvm.on(jdk).withoutAgent(), 0)
                .main(SlowReadCountApp.class, Integer.toString(READS), howItEnds).run();
        assertEquals(0, r.exitCode, r.toString());
        SlowReadCount.Counts counts = count.read();
        System.out.println("[SlowReadCountIT] " + jdk + " no agent, main " + howItEnds + ": " + counts);
        assertEquals("none", r.value("backends"), r.toString());
        assertTrue(counts.inCountedThreads() >= READS, "fewer counted reads than nanoTime calls: " + counts);
        assertTrue(counts.get("fine_reads_in_counted_threads_monotonic") >= READS, counts.toString());
        assertTrue(counts.total() >= counts.inCountedThreads(), counts.toString());
        assertTrue(counts.total() >= READS + 20_000, "the warm-up outside the window is in the total: " + counts);
    }

    @ParameterizedTest(name = "{0} main {1}")
    @MethodSource("cases")
    void withTheAgentTheLoopStaysOffTheSlowClock(Jdk jdk, String howItEnds) throws Exception {
        // The loop reads nanoTime, which leaves the system clock only for a TSC clock.
        HostMachine.assumeTscClock("a nanoTime loop off the slow clock");
        SlowReadCount count = SlowReadCount.create();
        ForkedJvm.Result r = count.underSimulator(ForkedJvm.on(jdk).agentArgs("mode=on"), 0)
                .main(SlowReadCountApp.class, Integer.toString(READS), howItEnds).run();
        assertEquals(0, r.exitCode, r.toString());
        SlowReadCount.Counts counts = count.read();
        System.out.println("[SlowReadCountIT] " + jdk + " agent mode=on, main " + howItEnds + ": " + counts);
        assertTrue(r.value("backends").contains("nanos=tsc"), r.toString());
        assertTrue(counts.inCountedThreads() <= MAX_READS_WITH_AGENT,
                "the rewritten nanoTime still reaches the slow clock: " + counts + "\n" + r);
        assertTrue(counts.total() > 0, "the agent's own sampling reads the system clock: " + counts);
    }
}
