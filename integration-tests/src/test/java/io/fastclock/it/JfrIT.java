package io.fastclock.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fastclock.it.apps.DemotionApp;
import io.fastclock.it.apps.LateRecordingApp;
import io.fastclock.it.apps.ObserveApp;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * fastclock in JDK Flight Recorder, read back with each JDK's own {@code jfr print}: the activation
 * with the backends chosen, the TSC clock's health, exactly one fallback when the kernel demotes the
 * TSC, and nothing at all about JFR on a runtime without the jdk.jfr module.
 */
class JfrIT {
    static List<Jdk> jdks() {
        return Jdk.all();
    }

    @TempDir
    Path temp;

    private static String recordTo(Path file) {
        return "-XX:StartFlightRecording=filename=" + file;
    }

    /** jfr print --events NAME FILE with the recording JDK's own tool. */
    static String jfrPrint(Jdk jdk, String events, Path recording) throws IOException, InterruptedException {
        Path out = Files.createTempFile("fastclock-jfr", ".txt");
        try {
            Process p = new ProcessBuilder(jdk.javaHome.resolve("bin/jfr").toString(), "print", "--events", events,
                    recording.toString()).redirectErrorStream(true).redirectOutput(out.toFile()).start();
            assertTrue(p.waitFor(120, TimeUnit.SECONDS), "jfr print did not finish");
            String text = new String(Files.readAllBytes(out), StandardCharsets.UTF_8);
            assertEquals(0, p.exitValue(), text);
            return text;
        } finally {
            Files.deleteIfExists(out);
        }
    }

    /** The bodies of the events named, as jfr print shows them ("name {" ... "}"). */
    static List<String> events(String printed, String name) {
        List<String> bodies = new ArrayList<>();
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(name) + " \\{\\n(.*?)^\\}", Pattern.DOTALL).matcher(printed);
        while (m.find()) {
            bodies.add(m.group(1));
        }
        return bodies;
    }

    static String field(String body, String field) {
        Matcher m = Pattern.compile("(?m)^\\s+" + Pattern.quote(field) + " = (.*)$").matcher(body);
        assertTrue(m.find(), "no field " + field + " in\n" + body);
        String value = m.group(1).trim();
        return value.startsWith("\"") && value.endsWith("\"") ? value.substring(1, value.length() - 1) : value;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void aRecordingUnderTheSimulatorShowsTheActivationWithTheChosenBackendsAndTheTscHealth(Jdk jdk) throws Exception {
        Path rec = temp.resolve("activation.jfr");
        ForkedJvm.Result r = ForkedJvm.on(jdk).slowClocksource(0).jvmArg(recordTo(rec))
                .main(ObserveApp.class, "sleepMs=2500").run();
        assertEquals(0, r.exitCode, r.toString());
        assertEquals("millis=tsc,nanos=tsc", r.value("backends"), r.toString());
        assertEquals(1, r.agentLines().size(), "JFR must not add lines on stderr\n" + r);

        String printed = jfrPrint(jdk, "fastclock.Activation", rec);
        List<String> activation = events(printed, "fastclock.Activation");
        assertEquals(1, activation.size(), "one activation (the recording began before the agent)\n" + printed);
        String a = activation.get(0);
        assertEquals("true", field(a, "active"), a);
        assertEquals("premain", field(a, "started"), a);
        assertEquals("tsc", field(a, "millisBackend"), a);
        assertEquals("tsc", field(a, "nanosBackend"), a);
        assertTrue(field(a, "reason").startsWith("active: currentTimeMillis -> tsc, nanoTime -> tsc"), a);
        assertTrue(r.agentLines().get(0).endsWith(field(a, "reason")), "the event's reason is the start line\n" + a + r);
        assertFalse(field(a, "clocksource").isEmpty(), a);
        assertFalse(field(a, "systemMillisNanosPerCall").equals("NaN"), "the measured cost is missing\n" + a);

        // The retransformation at start (before JFR was up on JDK 17) is reported once JFR is, with
        // the counts of the start line.
        String retransform = jfrPrint(jdk, "fastclock.Retransform", rec);
        List<String> retransforms = events(retransform, "fastclock.Retransform");
        assertEquals(1, retransforms.size(), retransform);
        Matcher jdkClasses = Pattern.compile("(\\d+) JDK classes changed (?:at start )?\\((\\d+) call sites\\)").matcher(r.stderr);
        Matcher appClasses = Pattern.compile("(\\d+) of \\d+ classes loaded before the agent rewritten").matcher(r.stderr);
        assertTrue(jdkClasses.find() && appClasses.find(), "the start line's counts\n" + r);
        assertEquals(Long.parseLong(jdkClasses.group(1)) + Long.parseLong(appClasses.group(1)),
                Long.parseLong(field(retransforms.get(0), "classes")), retransform + r);
        assertTrue(Long.parseLong(field(retransforms.get(0), "callSites")) >= Long.parseLong(jdkClasses.group(2)), retransform);

        String health = jfrPrint(jdk, "fastclock.TscHealth", rec);
        List<String> samples = events(health, "fastclock.TscHealth");
        assertTrue(samples.size() >= 1, "no TSC health in 2.5 s of a 1 s period\n" + health);
        String last = samples.get(samples.size() - 1);
        assertTrue(Long.parseLong(field(last, "reanchors")) >= 1, last);
        // A late extension is the anchor thread starved (a loaded machine), not an error: the field
        // must be there and be a count.
        assertTrue(Long.parseLong(field(last, "lateExtensions")) >= 0, last);
    }

    /** JFR started after the agent (as jcmd JFR.start does): the watcher notices, the activation and health follow. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void aRecordingStartedLaterStillGetsTheActivationAndTheTscHealth(Jdk jdk) throws Exception {
        Path rec = temp.resolve("late.jfr");
        ForkedJvm.Result r = ForkedJvm.on(jdk).slowClocksource(0).main(LateRecordingApp.class, rec.toString()).run();
        assertEquals(0, r.exitCode, r.toString());
        assertEquals("millis=tsc,nanos=tsc", r.value("backends"), r.toString());
        String printed = jfrPrint(jdk, "fastclock.Activation,fastclock.TscHealth", rec);
        List<String> activation = events(printed, "fastclock.Activation");
        assertEquals(1, activation.size(), printed);
        assertEquals("tsc", field(activation.get(0), "nanosBackend"), printed);
        assertTrue(events(printed, "fastclock.TscHealth").size() >= 1, printed);
    }

    /** DemotionIT's fixture: tsc leaves available_clocksource while the JVM runs and records. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void aDemotedTscShowsExactlyOneFallback(Jdk jdk) throws Exception {
        Path sys = temp.resolve("sys");
        Path clocksource = sys.resolve("devices/system/clocksource/clocksource0");
        Files.createDirectories(clocksource);
        Files.write(clocksource.resolve("current_clocksource"), "hpet\n".getBytes());
        Path available = clocksource.resolve("available_clocksource");
        Files.write(available, "tsc hpet acpi_pm\n".getBytes());
        Path rec = temp.resolve("fallback.jfr");

        ForkedJvm.Result r = ForkedJvm.on(jdk).jvmArg(recordTo(rec))
                .agentArgs("mode=on,recheck=" + DemotionIT.RECHECK_MS + ",sysfs=" + sys)
                .main(DemotionApp.class, available.toString(), "1").run();
        assertEquals(0, r.exitCode, r.toString());
        assertEquals("millis=tsc,nanos=tsc", r.value("backends"), r.toString());
        assertEquals(1, r.longValue("fallbackLines"), r.toString());

        String printed = jfrPrint(jdk, "fastclock.Fallback", rec);
        System.out.println("[JfrIT] " + jdk + ": jfr print --events fastclock.Fallback\n" + printed);
        List<String> fallbacks = events(printed, "fastclock.Fallback");
        assertEquals(1, fallbacks.size(), "exactly one fallback\n" + printed);
        String f = fallbacks.get(0);
        assertTrue(field(f, "reason").contains("no longer lists tsc in available_clocksource"), f);
        assertTrue(r.stderr.contains(field(f, "reason")), "the event's reason is the stderr line's\n" + f + r);
        assertTrue(Long.parseLong(field(f, "reanchors")) >= 1, f);
        field(f, "error");

        // The health samples stop at the fallback.
        String health = jfrPrint(jdk, "fastclock.TscHealth,fastclock.Fallback", rec);
        assertTrue(health.trim().endsWith("}") && health.lastIndexOf("fastclock.TscHealth {") < health.indexOf("fastclock.Fallback {"),
                "a TscHealth event after the fallback\n" + health);
    }

    /** A runtime made without jdk.jfr (jlink): the agent runs, rewrites, registers its MBean, and says nothing of JFR. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void withoutTheJfrModuleTheAgentRunsAndSaysNothingOfJfr(Jdk jdk) throws Exception {
        Path image = temp.resolve("image");
        Path jlinkTool = jdk.javaHome.resolve("bin/jlink");
        if (!Files.isExecutable(jlinkTool)) {
            System.err.println("[fastclock-it] JfrIT: SKIPPED on " + jdk + ": no jlink in that runtime (" + jlinkTool + ")");
        }
        Assumptions.assumeTrue(Files.isExecutable(jlinkTool), "no jlink in " + jdk);
        Process jlink = new ProcessBuilder(jlinkTool.toString(), "--add-modules",
                "java.base,java.instrument,java.management,jdk.unsupported", "--output", image.toString())
                .redirectErrorStream(true).redirectOutput(temp.resolve("jlink.txt").toFile()).start();
        assertTrue(jlink.waitFor(300, TimeUnit.SECONDS), "jlink did not finish");
        assertEquals(0, jlink.exitValue(), new String(Files.readAllBytes(temp.resolve("jlink.txt"))));
        Jdk small = Jdk.at("jlink image of " + jdk, image, jdk.feature);
        ForkedJvm.Result modules = ForkedJvm.on(small).withoutAgent().jvmArg("--list-modules").mainClassName("").run();
        assertFalse(modules.stdout.contains("jdk.jfr"), modules.toString());
        assertTrue(modules.stdout.contains("java.management"), modules.toString());

        ForkedJvm.Result active = ForkedJvm.on(small).slowClocksource(0).agentArgs("jmx=on")
                .main(ObserveApp.class, "sleepMs=300", "mbean").run();
        assertEquals(0, active.exitCode, active.toString());
        assertEquals("millis=tsc,nanos=tsc", active.value("backends"), active.toString());
        assertEquals(1, active.agentLines().size(), "one line, the start line\n" + active);
        assertTrue(active.agentLines().get(0).startsWith("fastclock: active:"), active.toString());
        assertEquals("true", active.value("mbean"), active.toString());
        assertFalse(active.stderr.toLowerCase(Locale.ROOT).contains("jfr"), active.toString());

        ForkedJvm.Result inactive = ForkedJvm.on(small).main(ObserveApp.class).run();
        assertEquals(0, inactive.exitCode, inactive.toString());
        assertEquals(Arrays.asList(inactive.stderr.trim()), inactive.agentLines(), inactive.toString());
        assertTrue(inactive.stderr.startsWith("fastclock: inactive:"), inactive.toString());
    }
}
