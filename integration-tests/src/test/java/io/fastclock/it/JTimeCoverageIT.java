package io.fastclock.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fastclock.it.apps.EarlyTimeAgent;
import io.fastclock.it.apps.JTimeCoverageApp;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * reach.java-time (docs/CONTRACT.md), proved by counting: under the slow-clocksource simulator, each entry point
 * of java.time's system clock and of the legacy date APIs (JTimeOps: Instant.now(), the system
 * clocks' instant() and millis(), InstantSource.system() on 17+, every now() and now(zone), new Date(),
 * Calendar.getInstance(), new GregorianCalendar()) makes at least one slow read per call without the
 * agent, and, with the agent at its defaults (auto, which picks the TSC clock under the simulator),
 * at most 1% of its calls reach the slow clocksource: from application code, from a class defined by
 * a loader whose parent is the bootstrap loader, and when another agent used java.time before
 * fastclock started (the classes are then covered by retransformation). The values stay right
 * (checked against CLOCK_REALTIME read through JNA).
 *
 * <p>Proves, in docs/CONTRACT.md: reach.java-time, reach.loaded-before, epoch.bounds,
 * host.jdk-changes, host.no-start-recursion, host.quiet.
 */
class JTimeCoverageIT {
    // The JVM's own C++ code reads the clock in the calling thread too (tiered compilation's event
    // rates, safepoint and class-loading statistics): tens of reads per window whatever its length,
    // more on a loaded machine. Enough calls keep those far inside the 1% budget.
    static final int OPS = 50_000;
    /** The target: 99% of the slow reads kept off the slow clocksource. */
    static final long MAX_READS_WITH_AGENT = OPS / 100;
    /** Entry points (JTimeOps): 28 everywhere, plus InstantSource's two on 17+. */
    static final int ENTRY_POINTS_17 = 30;

    @TempDir
    Path temp;

    static List<Jdk> jdks() {
        return Jdk.all();
    }

    private ForkedJvm.Result run(Jdk jdk, ForkedJvm jvm, SlowReadCount count) throws Exception {
        AgentJars.withJna(jvm, jdk);
        ForkedJvm.Result r = count.underSimulator(jvm, 0).main(JTimeCoverageApp.class, Integer.toString(OPS), "both").run();
        count.read();
        assertEquals(0, r.exitCode, r.toString());
        assertEquals("ok", r.value("done"), r.toString());
        assertEquals(jdk.feature >= 17 ? ENTRY_POINTS_17 : ENTRY_POINTS_17 - 2, r.longValue("entryPoints"), r.toString());
        for (Map.Entry<String, String> e : r.values().entrySet()) {
            if (e.getKey().startsWith("value.")) {
                assertEquals("ok", e.getValue(), e.getKey() + " is wrong\n" + r);
            }
        }
        BusyHost.assumeDecidedBeforeMain(r); // the counts need the clocks rewritten from main's start
        return r;
    }

    /** app.NAME and isolated.NAME counts. */
    private static Map<String, Long> counts(ForkedJvm.Result r) {
        Map<String, Long> counts = new TreeMap<>();
        r.values().forEach((k, v) -> {
            if (k.startsWith("app.") || k.startsWith("isolated.")) {
                counts.put(k, Long.parseLong(v));
            }
        });
        assertEquals(2 * r.longValue("entryPoints"), counts.size(), "not every entry point was counted\n" + r);
        return counts;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void withoutTheAgentEveryEntryPointReadsTheSlowClockEachCall(Jdk jdk) throws Exception {
        ForkedJvm.Result r = run(jdk, ForkedJvm.on(jdk).withoutAgent(), SlowReadCount.create());
        Map<String, Long> counts = counts(r);
        System.out.println("[JTimeCoverageIT] " + jdk + " no agent, slow reads per " + OPS + " ops: " + counts);
        assertEquals("none", r.value("backends"), r.toString());
        counts.forEach((k, n) -> assertTrue(n >= OPS, k + " made " + n + " slow reads for " + OPS + " calls\n" + r));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void withTheAgentAtItsDefaultsEveryEntryPointStaysOffTheSlowClock(Jdk jdk) throws Exception {
        HostMachine.assumeTscClock("java.time on fastclock (only a TSC clock serves it)");
        ForkedJvm.Result r = run(jdk, ForkedJvm.on(jdk), SlowReadCount.create());
        Map<String, Long> counts = counts(r);
        System.out.println("[JTimeCoverageIT] " + jdk + " agent defaults, slow reads per " + OPS + " ops: " + counts);
        assertEquals(HostMachine.backendsWithTsc(), r.value("backends"), r.toString());
        assertEquals("tsc", r.value("epoch"), r.toString());
        assertCovered(counts, r);
        assertStartLineOnly(r);
        assertTrue(r.agentLines().get(0).contains("(jdk=time): "), r.toString());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void javaTimeUsedByAnEarlierAgentIsCoveredByRetransformation(Jdk jdk) throws Exception {
        HostMachine.assumeTscClock("java.time on fastclock (only a TSC clock serves it)");
        String early = "-javaagent:" + AgentJars.premainJar(temp, EarlyTimeAgent.class);
        String fastclock = "-javaagent:" + ForkedJvm.agentJar();
        ForkedJvm.Result r = run(jdk, ForkedJvm.on(jdk).withoutAgent().agentGivenByTheTest().jvmArg(early, fastclock), SlowReadCount.create());
        Map<String, Long> counts = counts(r);
        System.out.println("[JTimeCoverageIT] " + jdk + " java.time used before fastclock, slow reads per " + OPS
                + " ops: " + counts + "; " + r.agentLines().get(0));
        assertEquals("tsc", r.value("epoch"), r.toString());
        assertCovered(counts, r);
        assertStartLineOnly(r);
        // Instant.now() loads java.time.Clock (Clock$SystemClock on 11) and new Date() java.util.Date.
        Matcher m = Pattern.compile("\\(jdk=time\\): (\\d+) JDK classes changed at start \\((\\d+) call sites\\)").matcher(r.agentLines().get(0));
        assertTrue(m.find(), "the start line does not count the JDK classes changed\n" + r);
        assertTrue(Long.parseLong(m.group(1)) >= 2, "the JDK classes loaded before fastclock were not retransformed\n" + r);
        assertTrue(Long.parseLong(m.group(2)) >= 2, r.toString());
    }

    /**
     * JDK classes retransformed (java.time loaded by an earlier agent) and rewritten at load, with the
     * default settings: the JVM warns of nothing more than it does with the earlier agent alone
     * (every JVM warning on stderr through -Xlog, as HostSafetyIT does).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void changingJdkClassesMakesTheJvmWarnOfNothing(Jdk jdk) throws Exception {
        // The start line it checks is the TSC clock's (java.time -> tsc): only that clock serves java.time.
        HostMachine.assumeTscClock("changing JDK classes for java.time");
        String early = "-javaagent:" + AgentJars.premainJar(temp, EarlyTimeAgent.class);
        String[] warnings = {"-Xlog:disable", "-Xlog:all=warning:stderr:level,tags"};
        ForkedJvm.Result alone = AgentJars.withJna(ForkedJvm.on(jdk).withoutAgent().jvmArg(early).jvmArg(warnings), jdk)
                .slowClocksource(0).main(JTimeCoverageApp.class, "100", "both").run();
        ForkedJvm.Result fast = AgentJars.withJna(ForkedJvm.on(jdk).withoutAgent().agentGivenByTheTest()
                .jvmArg(early, "-javaagent:" + ForkedJvm.agentJar()).jvmArg(warnings), jdk)
                .slowClocksource(0).main(JTimeCoverageApp.class, "100", "both").run();
        assertEquals(0, alone.exitCode, alone.toString());
        assertEquals(0, fast.exitCode, fast.toString());
        assertEquals("tsc", fast.value("epoch"), fast.toString());
        assertTrue(fast.agentLines().get(0).matches("fastclock: active: .*java.time -> tsc \\(jdk=time\\): [1-9]\\d* JDK classes changed at start.*"),
                "no JDK class was retransformed: the test would prove nothing\n" + fast);
        assertEquals(1, fast.agentLines().size(), fast.toString());
        List<String> jvmLines = nonEmptyLines(fast.stderr);
        jvmLines.removeAll(fast.agentLines());
        assertEquals(nonEmptyLines(alone.stderr), jvmLines,
                "the JVM printed more with fastclock than without\n" + fast + "\nwithout fastclock:\n" + alone);
        assertFalse(fast.stdout.contains("warning"), fast.toString());
    }

    private static List<String> nonEmptyLines(String text) {
        List<String> lines = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (!line.isEmpty()) {
                lines.add(line);
            }
        }
        return lines;
    }

    static void assertCovered(Map<String, Long> counts, ForkedJvm.Result r) {
        List<String> uncovered = new ArrayList<>();
        counts.forEach((k, n) -> {
            if (n > MAX_READS_WITH_AGENT) {
                uncovered.add(k + "=" + n);
            }
        });
        assertTrue(uncovered.isEmpty(), "these still reach the slow clocksource (slow reads per " + OPS + " calls): "
                + uncovered + "\n" + r);
    }

    /** Default settings: one line from the agent, and nothing else on stderr (no JVM warning). */
    static void assertStartLineOnly(ForkedJvm.Result r) {
        assertEquals(1, r.agentLines().size(), r.toString());
        for (String line : r.stderr.split("\n")) {
            assertTrue(line.isEmpty() || line.startsWith("fastclock: "), "stderr line not from the agent: " + line + "\n" + r);
        }
    }
}
