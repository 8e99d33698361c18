package io.fastclock.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fastclock.it.apps.EpochContractApp;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The epoch-time contract (docs/CONTRACT.md, the epoch.* clauses) for Instant.now() served by
 * fastclock's TSC clock, on a real JVM, against CLOCK_REALTIME read through JNA: within
 * [before - 1 ms, after + 1 ms], 1 us resolution or finer, agreeing with the rewritten
 * currentTimeMillis within its lag (1 ms for tsc), and following wall-clock steps within one second.
 * Run on this machine as it is (mode=on) and under the simulator with the agent at its defaults
 * while the simulator steps the wall clock +5 s, then -10 s.
 *
 * <p>Proves, in docs/CONTRACT.md: epoch.bounds, epoch.steps, epoch.agrees-with-millis.
 */
class EpochContractIT {
    static final int READS = 200_000;
    /** +5 s at 4 s, -10 s at 6 s after the simulator loads: inside the 8 s step phase the app runs first. */
    static final String STEPS = "4000:+5000,6000:-10000";
    /** The tsc millis backend's lag L (millis.lag in docs/CONTRACT.md). */
    static final long TSC_LAG_MS = 1;

    static List<Arguments> cases() {
        List<Arguments> cases = new ArrayList<>();
        for (Jdk jdk : Jdk.all()) {
            cases.add(Arguments.of(jdk, "machine"));
        }
        // The wall-clock steps under the simulator: following them is the TSC epoch clock's work, the
        // same on every JDK; java.time's wiring to it is the machine case's, on all four.
        for (Jdk jdk : Jdk.one()) {
            cases.add(Arguments.of(jdk, "simulator"));
        }
        return cases;
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("cases")
    void instantNowKeepsTheEpochContract(Jdk jdk, String where) throws Exception {
        HostMachine.assumeTscClock("Instant.now() on fastclock's epoch clock");
        boolean simulator = where.equals("simulator");
        ForkedJvm jvm = AgentJars.withJna(ForkedJvm.on(jdk), jdk);
        if (simulator) {
            jvm.slowClocksource(0).env("SLOWCLOCK_STEPS", STEPS);
        } else {
            jvm.agentArgs("mode=on,millis=tsc,nanos=tsc");
        }
        ForkedJvm.Result r = jvm.main(EpochContractApp.class, Integer.toString(READS), simulator ? "8" : "0").run();
        System.out.println("[EpochContractIT] " + jdk + " " + where + ": " + r.stdout.replace('\n', ' '));
        assertEquals(0, r.exitCode, r.toString());
        assertEquals("ok", r.value("done"), r.toString());
        BusyHost.assumeDecidedBeforeMain(r); // the epoch and backends it prints at main's start need the verdict then
        assertEquals("tsc", r.value("epoch"), "Instant.now() is not served by fastclock's TSC clock\n" + r);
        // Named on the machine; under the simulator auto's choice, coarse millis on a 1 ms kernel tick.
        assertEquals(simulator ? HostMachine.backendsWithTsc() : "millis=tsc,nanos=tsc", r.value("backends"), r.toString());
        long lagMs = r.value("backends").startsWith("millis=tsc") ? TSC_LAG_MS : 2; // coarse: two 1 ms ticks

        assertEquals(0, r.longValue("bounds.outside"), "Instant.now() outside [ref - 1 ms, ref + 1 ms]\n" + r);

        long reads = r.longValue("resolution.reads");
        assertTrue(r.longValue("resolution.notWholeMillis") > reads / 2,
                "Instant.now() has millisecond resolution, not 1 us or finer\n" + r);
        assertTrue(r.longValue("resolution.stepsUnder1us") > 0, "no two successive values less than 1 us apart\n" + r);
        assertEquals(0, r.longValue("resolution.backwards"), "Instant.now() went backwards in one thread\n" + r);

        long min = r.longValue("agreement.minDiffMs");
        long max = r.longValue("agreement.maxDiffMs");
        assertTrue(Math.abs(min) <= lagMs && Math.abs(max) <= lagMs,
                "currentTimeMillis and Instant.now() differ by more than the lag " + lagMs + " ms\n" + r);

        if (simulator) {
            assertEquals(2, r.longValue("refSteps"), "the simulator's two steps were not both seen\n" + r);
            assertTrue(Math.abs(r.longValue("step0DeltaMs") - 5000) < 100, r.toString());
            assertTrue(Math.abs(r.longValue("step1DeltaMs") + 10000) < 100, r.toString());
            for (int i = 0; i < 2; i++) {
                long follow = r.longValue("step" + i + "FollowMs");
                assertTrue(follow >= 0 && follow <= 1000, "step " + i + " not followed within 1 s\n" + r);
            }
            assertTrue(r.longValue("longestOffMs") <= 1000, "Instant.now() off the wall clock for more than 1 s\n" + r);
        }
        for (String line : r.stderr.split("\n")) {
            assertTrue(line.isEmpty() || line.startsWith("fastclock: "), "stderr line not from the agent: " + line + "\n" + r);
        }
    }
}
