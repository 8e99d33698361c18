package io.fastclock.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fastclock.it.apps.AttachTargetApp;
import io.fastclock.it.apps.HelloApp;
import io.fastclock.it.apps.ObserveApp;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * fastclock's state cannot be spoofed by the application: {@code attach}, {@code status} and the
 * MBean read the agent's live state (the JVM's agent properties, memory), never the fastclock.*
 * system properties any code can set; and a setting whose name or value holds a newline gives one
 * line on stderr, not two.
 */
class SpoofedStateIT {
    /** What the application claims about fastclock on its own command line. */
    static final String[] FAKE_PROPERTIES = {"-Dfastclock.started=premain", "-Dfastclock.active=true",
        "-Dfastclock.reason=fake-reason", "-Dfastclock.classes=999", "-Dfastclock.fallback=fake-fallback",
        "-Dfastclock.version=fake-version"};

    @TempDir
    Path temp;

    /** What attach and status read (the JVM's agent properties): on every JDK. */
    static List<Jdk> jdks() {
        return Jdk.all();
    }

    /** The MBean's state and one-line settings: the agent's own logic, one JDK. */
    static List<Jdk> oneJdk() {
        return Jdk.one();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void attachAndStatusIgnoreFastclockPropertiesTheApplicationSetsOnItself(Jdk jdk) throws Exception {
        Path trigger = temp.resolve("go");
        ForkedJvm.Result before;
        ForkedJvm.Result attach;
        ForkedJvm.Result after;
        ForkedJvm.Result r;
        try (ForkedJvm.Running app = ForkedJvm.on(jdk).withoutAgent().slowClocksource(0).jvmArg(FAKE_PROPERTIES)
                .classPath(ConcurrentLoadIT.classPathWithAsm()).main(AttachTargetApp.class, "0", trigger + ":run").start()) {
            app.awaitLine("waiting=1");
            before = AttachIT.command(jdk, "status", Long.toString(app.pid()));
            attach = AttachIT.command(jdk, "attach", Long.toString(app.pid()), "mode=on");
            after = AttachIT.command(jdk, "status", Long.toString(app.pid()));
            Files.createFile(trigger);
            r = app.finish();
        }
        assertEquals(0, before.exitCode, before.toString());
        assertTrue(before.stdout.contains("fastclock is not loaded"), "status believed the system properties\n" + before);
        assertEquals(0, attach.exitCode, attach.toString());
        assertFalse(attach.stdout.contains("already in"), "attach believed the system properties and loaded nothing\n" + attach);
        assertTrue(attach.stdout.contains("fastclock is active in JVM") && attach.stdout.contains("loaded by agentmain"),
                attach.toString());
        assertFalse(attach.stdout.contains("fake"), attach.toString());
        assertEquals(0, after.exitCode, after.toString());
        assertTrue(after.stdout.contains("loaded by agentmain") && after.stdout.contains("verdict:           active: ")
                && !after.stdout.contains("fake") && !after.stdout.contains(" 999 classes"), after.toString());
        assertEquals(0, r.exitCode, r.toString());
        assertEquals("true", r.value("finished"), r.toString());
        HostMachine.assertActiveBackends(r.value("backends"), r);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("oneJdk")
    void theMBeanShowsTheRealStateWhateverTheApplicationWritesToTheProperties(Jdk jdk) throws Exception {
        ForkedJvm.Result active = ForkedJvm.on(jdk).slowClocksource(0).agentArgs("jmx=on").jvmArg(FAKE_PROPERTIES)
                .main(ObserveApp.class, "fake", "mbean").run();
        assertEquals(0, active.exitCode, active.toString());
        HostMachine.assertActiveBackends(active.value("backends"), active);
        String millis = active.value("backends").replaceAll("millis=([^,]+),.*", "$1");
        assertEquals("true", active.value("mbean"), active.toString());
        assertEquals("true", active.value("mbean.Active"), active.toString());
        assertEquals("premain", active.value("mbean.Started"), active.toString());
        assertTrue(active.value("mbean.Reason").startsWith("active: currentTimeMillis -> " + millis), active.toString());
        assertEquals(millis, active.value("mbean.MillisBackend"), active.toString());
        assertEquals("null", active.value("mbean.Fallback"), active.toString());
        // The live count (refreshed about once a second, so 0 early in a short run): a number, never
        // null and never the forged 999.
        long classes = Long.parseLong(active.value("mbean.Classes"));
        assertTrue(classes >= 0 && classes != 999, active.toString());

        // A fast machine fed to the agent (Fixtures.fastMachine), so that it is inactive on any host.
        ForkedJvm.Result inactive = ForkedJvm.on(jdk).agentArgs("jmx=on," + Fixtures.fastMachine()).jvmArg(FAKE_PROPERTIES)
                .main(ObserveApp.class, "fake", "mbean").run();
        assertEquals(0, inactive.exitCode, inactive.toString());
        assertEquals("true", inactive.value("mbean"), inactive.toString());
        assertEquals("false", inactive.value("mbean.Active"), inactive.toString());
        assertEquals("premain", inactive.value("mbean.Started"), inactive.toString());
        assertTrue(inactive.value("mbean.Reason").startsWith("inactive: "), inactive.toString());
        assertEquals("system", inactive.value("mbean.MillisBackend"), inactive.toString());
        assertEquals("null", inactive.value("mbean.Fallback"), inactive.toString());
        assertEquals("null", inactive.value("mbean.Classes"), inactive.toString());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("oneJdk")
    void aSettingWhoseNameOrValueHoldsANewlineGivesOneLine(Jdk jdk) throws Exception {
        String[][] cases = {{"-Dfastclock.fo\no=1"}, {"-Dfastclock.mo\rde=on"}, {"-Dfastclock.library=/no/such\nfile"}};
        for (String[] jvmArgs : cases) {
            ForkedJvm.Result r = ForkedJvm.on(jdk).jvmArg(jvmArgs).main(HelloApp.class).run();
            assertEquals(0, r.exitCode, r.toString());
            List<String> lines = new ArrayList<>();
            for (String line : r.stderr.split("[\n\r]")) {
                if (!line.isEmpty()) {
                    lines.add(line);
                }
            }
            assertEquals(1, lines.size(), "one line from fastclock and nothing else\n" + r);
            assertTrue(lines.get(0).startsWith("fastclock: ") && lines.get(0).contains("\\u00"), r.toString());
        }
    }
}
