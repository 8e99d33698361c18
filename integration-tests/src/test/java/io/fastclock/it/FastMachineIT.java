package io.fastclock.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fastclock.it.apps.FastMachineApp;
import io.fastclock.it.apps.HelloApp;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * On a machine whose system clocks are fast (Fixtures.fastMachine: so on any host), with plain
 * settings, the entry answers alone: its one line, the verdict published for the commands, and
 * nothing else defined (no agent module, no native library, no observer thread), whatever start says.
 * The line is the one the agent's module writes for the same machine.
 *
 * <p>Proves, in docs/CONTRACT.md: activation.fast-at-entry.
 */
class FastMachineIT {
    @TempDir
    Path temp;

    static List<Jdk> jdks() {
        return Jdk.all();
    }

    static final String FAST_LINE = "fastclock: inactive: system clocks are fast here (clocksource tsc; ";

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void theEntryAnswersAloneAndTheCommandsSeeItsVerdict(Jdk jdk) throws Exception {
        for (String start : new String[] {"wait", "background"}) {
            Path classes = temp.resolve("classes-" + start + ".log");
            Path trigger = temp.resolve("go-" + start);
            ForkedJvm.Result r;
            ForkedJvm.Result status;
            try (ForkedJvm.Running app = ForkedJvm.on(jdk).agentArgs(Fixtures.fastMachine() + ",start=" + start)
                    .jvmArg("-Xlog:class+load:file=" + classes).main(FastMachineApp.class, trigger.toString()).start()) {
                app.awaitLine("waiting=1");
                status = statusOnceLoaded(jdk, app.pid());
                Files.createFile(trigger);
                r = app.finish();
            }
            String context = "start=" + start + "\n" + r + "\nstatus:\n" + status;
            assertEquals(0, r.exitCode, context);
            List<String> lines = r.agentLines();
            assertEquals(1, lines.size(), context);
            assertTrue(lines.get(0).startsWith(FAST_LINE), context);
            assertEquals("false", r.value("active"), context);
            if (start.equals("wait")) {
                assertEquals("false", r.value("activeAtMain"), "the mirror is set before main\n" + context);
            }
            assertEquals("none", r.value("mappedLibrary"), context);
            String threads = r.value("threads");
            assertTrue(threads.equals("none") || threads.equals("fastclock-publish"), "no observer, no start thread left\n" + context);

            List<String> agentClasses = Files.readAllLines(classes).stream().filter(l -> l.contains(" io.fastclock.") && !l.contains(" io.fastclock.it."))
                    .map(l -> l.substring(l.indexOf(" io.fastclock.") + 1).split(" ")[0]).collect(Collectors.toList());
            for (String c : agentClasses) {
                boolean entry = c.matches("io\\.fastclock\\.entry\\.[A-Za-z$]+") || c.startsWith("io.fastclock.entry.state.");
                assertTrue(entry && !c.contains("PrivateModule"),
                        "a class past the entry was loaded: " + c + "\n" + agentClasses + "\n" + context);
            }

            assertEquals(0, status.exitCode, context);
            JsonNode json = new ObjectMapper().readTree(status.stdout);
            assertTrue(json.path("active").isBoolean(), "status never saw the entry's verdict\n" + context);
            assertEquals("premain", json.get("started").asText(), context);
            assertFalse(json.get("active").asBoolean(), context);
            assertEquals(lines.get(0), json.get("summary").asText(), context);
            for (String clock : new String[] {"millis", "nanos"}) {
                assertEquals("system", json.path(clock).path("backend").asText(), context);
            }
            assertEquals("jdk", json.path("javaTime").path("epoch").asText(), context);
            try (JarFile jar = new JarFile(ForkedJvm.agentJar().toFile())) {
                assertEquals(jar.getManifest().getMainAttributes().getValue("Implementation-Version"),
                        json.get("version").asText(), context);
            }
        }
    }

    /** The module, asked by a setting only it reads, says the same of the same machine. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void theModuleWritesTheSameLine(Jdk jdk) throws Exception {
        ForkedJvm.Result module = ForkedJvm.on(jdk).agentArgs(Fixtures.fastMachine() + ",jmx=auto").main(HelloApp.class).run();
        assertEquals(1, module.agentLines().size(), module.toString());
        assertTrue(module.agentLines().get(0).startsWith(FAST_LINE), module.toString());
        // At the defaults the module decides on its own thread, and says so after the entry's words.
        assertTrue(module.agentLines().get(0).endsWith("at most (timed before compilation); threshold 1000000 ns)"
                + "; decided in the background"), module.toString());
    }

    /** The verdict reaches the agent properties on a thread of the entry's, soon after main starts. */
    private static ForkedJvm.Result statusOnceLoaded(Jdk jdk, long pid) throws Exception {
        ForkedJvm.Result status = null;
        for (int i = 0; i < 50; i++) {
            status = AttachIT.command(jdk, "status", Long.toString(pid), "--json");
            if (status.exitCode == 0 && new ObjectMapper().readTree(status.stdout).path("active").isBoolean()) {
                return status;
            }
            Thread.sleep(100);
        }
        return status;
    }
}
