package io.fastclock.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fastclock.it.apps.LoggingApp;
import java.io.File;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Logback 1.5 and Log4j2 stamp each event through java.time: under the simulator, with the
 * agent at its defaults, their events reach the slow clocksource at most 1% as often as without it,
 * and the timestamps (millis and instant) are right against CLOCK_REALTIME read through JNA.
 *
 * <p>Proves, in docs/CONTRACT.md: reach.java-time, epoch.bounds.
 */
class LoggingIT {
    static final int EVENTS = 20_000;
    static final int CHECKED = 2_000;

    static List<Jdk> jdks() {
        return Jdk.all();
    }

    static String classPath() throws Exception {
        return String.join(File.pathSeparator, AgentJars.classPathWithJna(),
                AgentJars.jarOf(ch.qos.logback.classic.LoggerContext.class),
                AgentJars.jarOf(ch.qos.logback.core.AppenderBase.class),
                AgentJars.jarOf(org.slf4j.LoggerFactory.class),
                AgentJars.jarOf(org.apache.logging.log4j.LogManager.class),
                AgentJars.jarOf(org.apache.logging.log4j.core.LoggerContext.class));
    }

    private static ForkedJvm.Result run(Jdk jdk, ForkedJvm jvm) throws Exception {
        SlowReadCount count = SlowReadCount.create();
        AgentJars.withJna(jvm, jdk).classPath(classPath());
        ForkedJvm.Result r = count.underSimulator(jvm, 0)
                .main(LoggingApp.class, Integer.toString(EVENTS), Integer.toString(CHECKED)).run();
        count.read();
        assertEquals(0, r.exitCode, r.toString());
        assertEquals("ok", r.value("done"), r.toString());
        for (String framework : new String[] {"logback", "log4j2"}) {
            assertEquals(CHECKED, r.longValue(framework + ".checked"), r.toString());
            assertEquals(0, r.longValue(framework + ".wrongMillis"), framework + " event millis wrong\n" + r);
            assertEquals(0, r.longValue(framework + ".wrongInstant"), framework + " event instant wrong\n" + r);
            assertTrue(r.longValue(framework + ".formatted") > 0, r.toString());
        }
        BusyHost.assumeDecidedBeforeMain(r); // the slow reads and the epoch need the verdict from main's start
        return r;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void logEventsComeThroughFastclockAndAreRight(Jdk jdk) throws Exception {
        // Log events are stamped through java.time, which only a TSC clock serves (epoch.jdk-otherwise).
        HostMachine.assumeTscClock("log events on fastclock's epoch clock");
        ForkedJvm.Result without = run(jdk, ForkedJvm.on(jdk).withoutAgent());
        ForkedJvm.Result with = run(jdk, ForkedJvm.on(jdk));
        assertEquals("tsc", with.value("epoch"), with.toString());
        for (String framework : new String[] {"logback", "log4j2"}) {
            long slowWithout = without.longValue(framework + ".slowReads");
            long slowWith = with.longValue(framework + ".slowReads");
            System.out.println("[LoggingIT] " + jdk + " " + framework + ": slow reads for " + EVENTS + " events: "
                    + slowWithout + " without the agent, " + slowWith + " with it");
            assertTrue(slowWithout >= EVENTS, framework + " events do not read the clock?\n" + without);
            assertTrue(slowWith * 100 <= slowWithout,
                    framework + " events still reach the slow clocksource: " + slowWith + " vs " + slowWithout + "\n" + with);
        }
        JTimeCoverageIT.assertStartLineOnly(with);
    }
}
