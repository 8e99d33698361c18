package io.fastclock.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fastclock.it.apps.ObserveApp;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The MBean io.fastclock:type=FastClock: there when the application has a platform MBean server,
 * or with jmx=on; and with neither, no MBean server exists (fastclock created none). The inactive
 * cases feed a fast machine; the TSC health needs a host with a TSC clock (HostMachine), else it
 * is a visible skip.
 *
 * <p>Proves, in docs/CONTRACT.md: report.jmx.
 */
class JmxIT {
    /** Registering the MBean (the agent's module exported to java.management): on every JDK. */
    static List<Jdk> jdks() {
        return Jdk.all();
    }

    /** What the MBean says, and when no server is made: the agent's own logic, one JDK. */
    static List<Jdk> oneJdk() {
        return Jdk.one();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("oneJdk")
    void whenTheApplicationHasAPlatformServerTheMBeanShowsTheStateAndTheTscHealth(Jdk jdk) throws Exception {
        HostMachine.assumeTscClock("the TSC clock's health in the MBean");
        String millis = HostMachine.millisBackendWithTsc();
        ForkedJvm.Result r = ForkedJvm.on(jdk).slowClocksource(0)
                .main(ObserveApp.class, "platform", "mbean", "untilReanchors=1").run();
        assertEquals(0, r.exitCode, r.toString());
        assertEquals(HostMachine.backendsWithTsc(), r.value("backends"), r.toString());
        assertEquals("true", r.value("mbean"), "no MBean although the application has a platform MBean server\n" + r);
        assertEquals("true", r.value("mbeanInPlatformServer"), r.toString());
        assertEquals("true", r.value("mbean.Active"), r.toString());
        assertEquals("premain", r.value("mbean.Started"), r.toString());
        assertEquals(millis, r.value("mbean.MillisBackend"), r.toString());
        assertEquals("tsc", r.value("mbean.NanosBackend"), r.toString());
        assertTrue(r.value("mbean.Reason").startsWith("active: currentTimeMillis -> " + millis), r.toString());
        assertEquals("null", r.value("mbean.Fallback"), r.toString());
        assertEquals("true", r.value("mbean.TscRunning"), r.toString());
        // The app waited (with a deadline far beyond the quarter second it takes) for the first re-anchor.
        assertTrue(r.longValue("mbean.TscReanchors") >= 1, "no re-anchor within the app's deadline\n" + r);
        assertTrue(Math.abs(r.longValue("mbean.TscWorstErrorNanos")) < 2_000_000L, "past the fallback bound\n" + r);
        assertEquals(1, r.agentLines().size(), "the MBean must not add lines on stderr\n" + r);
    }

    /**
     * A fast machine fed to the agent (Fixtures.fastMachine), so that "inactive" holds on any host. With
     * jmx named, the agent's module decides and the MBean says inactive and why; with every other
     * setting left alone, the entry answers before any observer exists: no MBean, no watcher thread.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("oneJdk")
    void onAFastMachineTheMBeanSaysInactiveAndWhyWhereJmxIsNamed(Jdk jdk) throws Exception {
        ForkedJvm.Result r = ForkedJvm.on(jdk).agentArgs(Fixtures.fastMachine() + ",jmx=auto")
                .main(ObserveApp.class, "platform", "mbean").run();
        assertEquals(0, r.exitCode, r.toString());
        assertEquals("true", r.value("mbean"), r.toString());
        assertEquals("false", r.value("mbean.Active"), r.toString());
        assertEquals("system", r.value("mbean.MillisBackend"), r.toString());
        assertTrue(r.value("mbean.Reason").startsWith("inactive: system clocks are fast here"), r.toString());
        assertEquals("false", r.value("mbean.TscRunning"), r.toString());
        assertEquals("null", r.value("mbean.TscReanchors"), r.toString());

        ForkedJvm.Result plain = ForkedJvm.on(jdk).agentArgs(Fixtures.fastMachine())
                .main(ObserveApp.class, "platform", "mbean", "mbeanWaitMs=1500").run();
        assertEquals(0, plain.exitCode, plain.toString());
        assertTrue(plain.stderr.contains("fastclock: inactive: system clocks are fast here"), plain.toString());
        assertEquals("false", plain.value("mbean"), "the entry's answer defines no observer\n" + plain);
        assertEquals("false", plain.value("watcher"), "the entry's answer starts no watcher\n" + plain);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void jmxOnCreatesThePlatformServerAndRegisters(Jdk jdk) throws Exception {
        ForkedJvm.Result r = ForkedJvm.on(jdk).slowClocksource(0).agentArgs("jmx=on").main(ObserveApp.class, "mbean").run();
        assertEquals(0, r.exitCode, r.toString());
        assertEquals("true", r.value("mbean"), "jmx=on must register\n" + r);
        assertEquals("true", r.value("mbeanInPlatformServer"), r.toString());
        // Under the simulator nanoTime goes to the TSC clock where the host can have one, else it
        // stays on the system clock (a coarse nanoTime only when named).
        assertEquals(HostMachine.hasTscClock() ? "tsc" : "system", r.value("mbean.NanosBackend"), r.toString());

        ForkedJvm.Result fast = ForkedJvm.on(jdk).agentArgs(Fixtures.fastMachine()).env("FASTCLOCK_JMX", "on")
                .main(ObserveApp.class, "mbean").run();
        assertEquals(0, fast.exitCode, fast.toString());
        assertEquals("true", fast.value("mbean"), "FASTCLOCK_JMX=on must register, on the inactive path too\n" + fast);
        assertEquals("false", fast.value("mbean.Active"), fast.toString());
    }

    /**
     * jmx=auto and an application that never touches JMX: after the watcher has looked a few times,
     * no MBean server exists. The same run proves the watcher ran (so the check was not skipped).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("oneJdk")
    void withNeitherNoMBeanServerIsCreated(Jdk jdk) throws Exception {
        // active, and inactive in the agent's module (jmx named: the entry leaves the answer to the module)
        for (ForkedJvm jvm : new ForkedJvm[] {ForkedJvm.on(jdk).slowClocksource(0),
            ForkedJvm.on(jdk).agentArgs(Fixtures.fastMachine() + ",jmx=auto")}) {
            ForkedJvm.Result r = jvm.main(ObserveApp.class, "sleepMs=2500").run();
            assertEquals(0, r.exitCode, r.toString());
            assertEquals("true", r.value("watcher"), "jmx=auto must watch for the platform server (thread fastclock-observe)\n" + r);
            assertEquals("0", r.value("servers"), "an MBean server exists although nobody asked for one\n" + r);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("oneJdk")
    void jmxOffNeverRegisters(Jdk jdk) throws Exception {
        // 3 s with a platform server: three of the watcher's 1 s periods, in any one of which jmx=auto registers.
        ForkedJvm.Result r = ForkedJvm.on(jdk).slowClocksource(0).agentArgs("jmx=off")
                .main(ObserveApp.class, "platform", "sleepMs=1500", "mbean", "mbeanWaitMs=1500").run();
        assertEquals(0, r.exitCode, r.toString());
        assertEquals("false", r.value("mbean"), r.toString());
    }
}
