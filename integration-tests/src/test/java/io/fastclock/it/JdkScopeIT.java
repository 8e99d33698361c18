package io.fastclock.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fastclock.it.apps.JTimeCoverageApp;
import io.fastclock.it.apps.TimedWaitApp;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The setting jdk and the cases where no JDK class may change (reach.jdk-setting, host.jdk-changes),
 * under the simulator, by count and by the agent's own account (log=debug, start line):
 * jdk=all moves java.util.concurrent's timed waits onto fastclock and they still wait long enough;
 * jdk=none, mode=off and an inactive auto change no JDK class, and java.time keeps reading the slow
 * clock. (An active agent without a TSC clock: CoarseOnlyJavaTimeIT.)
 *
 * <p>Proves, in docs/CONTRACT.md: reach.jdk-setting, host.jdk-changes, activation.off, activation.auto, host.quiet.
 */
class JdkScopeIT {
    static final int WAITS = 1_000;
    static final String DELAY_US = "200";
    static final int OPS = 2_000;

    static List<Jdk> jdks() {
        return Jdk.all();
    }

    private static ForkedJvm.Result timedWaits(Jdk jdk, String jdkSetting) throws Exception {
        // The timed waits read nanoTime, which leaves the system clock only for a TSC clock.
        HostMachine.assumeTscClock("moving the JDK's timed waits onto fastclock");
        SlowReadCount count = SlowReadCount.create();
        // Every JVM warning on stderr: changing every JDK class that calls the clocks must cause none.
        ForkedJvm jvm = AgentJars.withJna(ForkedJvm.on(jdk).agentArgs("jdk=" + jdkSetting)
                .jvmArg("-Xlog:disable", "-Xlog:all=warning:stderr:level,tags"), jdk);
        ForkedJvm.Result r = count.underSimulator(jvm, 0).main(TimedWaitApp.class, Integer.toString(WAITS), DELAY_US).run();
        count.read();
        System.out.println("[JdkScopeIT] " + jdk + " jdk=" + jdkSetting + ": " + r.stdout.replace('\n', ' '));
        BusyHost.assumeDecidedBeforeMain(r); // the counts need the clocks rewritten from main's start
        assertEquals(0, r.exitCode, r.toString());
        assertEquals("ok", r.value("done"), r.toString());
        assertEquals(HostMachine.backendsWithTsc(), r.value("backends"), r.toString());
        for (String workload : new String[] {"schedule", "poll"}) {
            assertEquals(0, r.longValue(workload + ".short"), workload + ": a wait ended before its delay\n" + r);
        }
        assertEquals(1, r.agentLines().size(), r.toString());
        for (String line : r.stderr.split("\n")) {
            assertTrue(line.isEmpty() || line.startsWith("fastclock: "), "stderr line not from the agent: " + line + "\n" + r);
        }
        return r;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void jdkAllPutsTimedWaitsOnFastclockAndTheyStillWaitLongEnough(Jdk jdk) throws Exception {
        ForkedJvm.Result time = timedWaits(jdk, "time");
        ForkedJvm.Result all = timedWaits(jdk, "all");
        assertTrue(all.startLine().contains("(jdk=all): "), all.toString());
        for (String workload : new String[] {"schedule", "poll"}) {
            long slowTime = time.longValue(workload + ".slowReads");
            long slowAll = all.longValue(workload + ".slowReads");
            // What remains with jdk=all is the JVM's own read in a timed park (C++), about one per wait.
            assertTrue(slowTime >= 3L * WAITS, workload + " reads the clock less than expected with jdk=time\n" + time);
            assertTrue(slowAll * 3 <= slowTime, workload + ": jdk=all kept too few reads off the slow clock: "
                    + slowAll + " vs " + slowTime + " with jdk=time\n" + all);
        }
    }

    /** JTimeCoverageApp's counts in application code, each of which must still be a slow read per call. */
    private static ForkedJvm.Result javaTimeStaysSlow(Jdk jdk, String agentArgs) throws Exception {
        SlowReadCount count = SlowReadCount.create();
        ForkedJvm jvm = AgentJars.withJna(ForkedJvm.on(jdk).agentArgs(agentArgs), jdk);
        ForkedJvm.Result r = count.underSimulator(jvm, 0).main(JTimeCoverageApp.class, Integer.toString(OPS), "app").run();
        count.read();
        assertEquals(0, r.exitCode, r.toString());
        assertEquals("ok", r.value("done"), r.toString());
        Map<String, Long> counts = new TreeMap<>();
        r.values().forEach((k, v) -> {
            if (k.startsWith("app.")) {
                counts.put(k, Long.parseLong(v));
            }
        });
        System.out.println("[JdkScopeIT] " + jdk + " " + agentArgs + ": " + r.startLine() + " " + counts);
        assertEquals(r.longValue("entryPoints"), counts.size(), r.toString());
        counts.forEach((k, n) -> assertTrue(n >= OPS, k + " was moved off the slow clock (" + n + " reads)\n" + r));
        for (String line : r.agentLines()) {
            assertFalse(line.matches("fastclock: rewrote (java|jdk|sun|com\\.sun)\\..*"), "a JDK class was changed: " + line + "\n" + r);
        }
        return r;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void jdkNoneChangesNoJdkClass(Jdk jdk) throws Exception {
        ForkedJvm.Result r = javaTimeStaysSlow(jdk, "jdk=none,log=debug");
        assertTrue(r.startLine().startsWith("fastclock: active: "), r.toString());
        assertTrue(r.startLine().contains("no JDK class changed (jdk=none)"), r.toString());
        HostMachine.assertActiveBackends(r.value("backends"), r);
        assertTrue(r.stderr.contains("JDK classes: scanned=0 parsed=0 rewritten=0 callSites=0"), r.toString());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void modeOffChangesNoJdkClass(Jdk jdk) throws Exception {
        ForkedJvm.Result r = javaTimeStaysSlow(jdk, "mode=off,log=debug");
        assertEquals(List.of("fastclock: inactive: mode=off"), r.agentLines(), r.toString());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void anInactiveAutoChangesNoJdkClass(Jdk jdk) throws Exception {
        // A fast machine fed to the agent: the tsc clocksource, and a threshold far above what the
        // simulated clocks cost, so that auto stays out on any host (an hpet host's clocksource alone
        // would make it active).
        ForkedJvm.Result r = javaTimeStaysSlow(jdk, Fixtures.fastMachine() + ",log=debug");
        assertTrue(r.startLine().startsWith("fastclock: inactive: "), r.toString());
        assertFalse(r.stderr.contains("rewrote"), r.toString());
    }
}
