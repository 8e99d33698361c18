package io.fastclock.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fastclock.it.apps.BreakingRetransformAgent;
import io.fastclock.it.apps.JTimeCoverageApp;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A retransformation that fails (another agent hands the JVM a broken java.time.Clock whenever it is
 * redefined) leaves that class as it was, with one line naming it: the application runs, its
 * java.time values are right (the JDK's own read), and the other JDK classes are still covered
 * (new Date() and the calendars stay off the slow clocksource, by count).
 *
 * <p>Proves, in docs/CONTRACT.md: host.failure-runs, host.jdk-changes, epoch.jdk-otherwise,
 * reach.java-time.
 */
class RetransformFailureIT {
    static final int OPS = 50_000; // see JTimeCoverageIT.OPS

    @TempDir
    Path temp;

    static List<Jdk> jdks() {
        return Jdk.all();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void aFailedRetransformationKeepsTheAppRunningWithOneLine(Jdk jdk) throws Exception {
        // Its value checks are 1 ms bounds, the TSC clock's: without one, Date and Clock.millis follow the
        // coarse millis (two kernel ticks behind), and java.time.Clock, the class it breaks, is not changed.
        HostMachine.assumeTscClock("a failed retransformation of java.time");
        String breaking = "-javaagent:" + AgentJars.premainJar(temp, BreakingRetransformAgent.class);
        String fastclock = "-javaagent:" + ForkedJvm.agentJar();
        SlowReadCount count = SlowReadCount.create();
        ForkedJvm jvm = AgentJars.withJna(ForkedJvm.on(jdk).withoutAgent().agentGivenByTheTest().jvmArg(breaking, fastclock), jdk);
        ForkedJvm.Result r = count.underSimulator(jvm, 0).main(JTimeCoverageApp.class, Integer.toString(OPS), "app").run();
        count.read();
        System.out.println("[RetransformFailureIT] " + jdk + ": " + String.join(" | ", r.agentLines()) + " "
                + r.values().entrySet().stream().filter(e -> e.getKey().startsWith("app."))
                        .map(Map.Entry::toString).sorted().collect(Collectors.joining(", ")));
        assertEquals(0, r.exitCode, r.toString());
        assertEquals("ok", r.value("done"), r.toString());
        for (Map.Entry<String, String> e : r.values().entrySet()) {
            if (e.getKey().startsWith("value.")) {
                assertEquals("ok", e.getValue(), e.getKey() + " is wrong\n" + r);
            }
        }
        BusyHost.assumeDecidedBeforeMain(r); // the counts need the clocks rewritten from main's start
        List<String> lines = r.agentLines();
        assertTrue(lines.get(0).startsWith("fastclock: active: "), r.toString());
        List<String> naming = lines.stream().filter(l -> l.contains("java.time.Clock")).collect(Collectors.toList());
        assertEquals(1, naming.size(), "one line must name the class that could not be retransformed\n" + r);
        assertEquals(2, lines.size(), "the start line and the one failure line, nothing more\n" + r);
        for (String line : r.stderr.split("\n")) {
            assertTrue(line.isEmpty() || line.startsWith("fastclock: "), "stderr line not from the agent: " + line + "\n" + r);
        }
        // The broken class keeps the JDK's read; the others are still covered.
        assertTrue(r.longValue("app.Instant.now") >= OPS, "Instant.now() should have stayed on the JDK's read\n" + r);
        for (String covered : new String[] {"app.new Date", "app.new GregorianCalendar", "app.Calendar.getInstance"}) {
            assertTrue(r.longValue(covered) <= OPS / 100, covered + " is no longer covered\n" + r);
        }
    }
}
