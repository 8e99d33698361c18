package io.fastclock.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.fastclock.it.apps.DemotionApp;
import io.fastclock.it.apps.JfrHealthApp;
import io.fastclock.it.apps.LateRecordingApp;
import io.fastclock.it.apps.ObserveApp;
import io.fastclock.it.apps.ShortProgramApp;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
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
 * TSC, and nothing at all about JFR on a runtime without the jdk.jfr module. The TSC cases need a
 * host that can have a TSC clock (HostMachine; else a visible skip); the inactive case feeds a fast
 * machine.
 *
 * <p>Proves, in docs/CONTRACT.md: report.jfr, activation.fallback, reach.loaded-before.
 */
class JfrIT {
    static List<Jdk> jdks() {
        return Jdk.all();
    }

    /** The fallback's event: what the agent puts in it is its own logic (JFR's emission is the others' on every JDK). */
    static List<Jdk> oneJdk() {
        return Jdk.one();
    }

    @TempDir
    Path temp;

    private static String recordTo(Path file) {
        return "-XX:StartFlightRecording=filename=" + file;
    }

    /** jfr print --json --events NAMES FILE with the recording JDK's own tool (exact values, durations in ISO-8601). */
    static String jfrPrint(Jdk jdk, String events, Path recording) throws IOException, InterruptedException {
        Path out = Files.createTempFile("fastclock-jfr", ".json");
        try {
            Process p = new ProcessBuilder(jdk.javaHome.resolve("bin/jfr").toString(), "print", "--json", "--events", events,
                    recording.toString()).redirectErrorStream(true).redirectOutput(out.toFile()).start();
            assertTrue(p.waitFor(120, TimeUnit.SECONDS), "jfr print did not finish");
            String text = new String(Files.readAllBytes(out), StandardCharsets.UTF_8);
            assertEquals(0, p.exitValue(), text);
            return text;
        } finally {
            Files.deleteIfExists(out);
        }
    }

    private static final JsonMapper JSON = JsonMapper.builder().enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS).build();

    /** The values of the events named, in the order jfr print gives them. */
    static List<JsonNode> events(String printed, String name) throws IOException {
        List<JsonNode> values = new ArrayList<>();
        for (JsonNode event : JSON.readTree(printed).path("recording").path("events")) {
            if (event.path("type").asText().equals(name)) {
                values.add(event.get("values"));
            }
        }
        return values;
    }

    static JsonNode value(JsonNode event, String field) {
        JsonNode v = event.get(field);
        assertTrue(v != null && !v.isNull(), "no field " + field + " in\n" + event.toPrettyString());
        return v;
    }

    static String field(JsonNode event, String field) {
        return value(event, field).asText();
    }

    /** A count: a whole number, never negative. */
    static long count(JsonNode event, String field) {
        JsonNode v = value(event, field);
        assertTrue(v.isIntegralNumber() && v.asLong() >= 0, field + " is not a count in\n" + event.toPrettyString());
        return v.asLong();
    }

    /** A @Timespan field, exact to the nanosecond. */
    static long nanos(JsonNode event, String field) {
        return Duration.parse(field(event, field)).toNanos();
    }

    static Instant startTime(JsonNode event) {
        return Instant.parse(field(event, "startTime"));
    }

    /**
     * Recording from the JVM's start (the activation, the retransform at start), then a recording of
     * the TSC health until it holds two samples; the MBean's figures, read after the last sample, bound
     * each sample's counts: a count in an event is the clock's own count at that moment.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void aRecordingUnderTheSimulatorShowsTheActivationWithTheChosenBackendsAndTheTscHealth(Jdk jdk) throws Exception {
        HostMachine.assumeTscClock("the TSC clock's activation and health in JFR");
        String millis = HostMachine.millisBackendWithTsc();
        Path rec = temp.resolve("activation.jfr");
        Path healthRec = temp.resolve("health.jfr");
        ForkedJvm.Result r = ForkedJvm.on(jdk).slowClocksource(0).jvmArg(recordTo(rec))
                .main(JfrHealthApp.class, healthRec.toString(), "2").run();
        assertEquals(0, r.exitCode, r.toString());
        assertEquals(HostMachine.backendsWithTsc(), r.value("backends"), r.toString());
        assertEquals("up", r.value("agentJfr"), "the agent did not take JFR up within the app's deadline\n" + r);
        assertEquals(1, r.longValue("stoppedRecordings"), r.toString());
        assertEquals(1, BusyHost.withoutUndecided(r.agentLines()).size(), "JFR must not add lines on stderr\n" + r);

        String printed = jfrPrint(jdk, "fastclock.Activation", rec);
        List<JsonNode> activation = events(printed, "fastclock.Activation");
        assertEquals(1, activation.size(), "one activation (the recording began before the agent)\n" + printed);
        JsonNode a = activation.get(0);
        assertEquals("true", field(a, "active"), printed);
        assertEquals("premain", field(a, "started"), printed);
        assertEquals(millis, field(a, "millisBackend"), printed);
        assertEquals("tsc", field(a, "nanosBackend"), printed);
        assertTrue(field(a, "reason").startsWith("active: currentTimeMillis -> " + millis + ", nanoTime -> tsc"), printed);
        assertTrue(r.agentLines().get(0).endsWith(field(a, "reason")), "the event's reason is the start line\n" + printed + r);
        assertFalse(field(a, "clocksource").isEmpty(), printed);
        assertTrue(value(a, "systemMillisNanosPerCall").isNumber() && value(a, "systemMillisNanosPerCall").asDouble() > 0,
                "the measured cost is missing\n" + printed);

        // The retransformation at start (before JFR was up on JDK 17) is reported once JFR is, with
        // the counts of the start line.
        String retransform = jfrPrint(jdk, "fastclock.Retransform", rec);
        List<JsonNode> retransforms = events(retransform, "fastclock.Retransform");
        assertEquals(1, retransforms.size(), retransform);
        Matcher jdkClasses = Pattern.compile("(\\d+) JDK classes changed (?:at start )?\\((\\d+) call sites\\)").matcher(r.stderr);
        Matcher appClasses = Pattern.compile("(\\d+) of \\d+ classes loaded before the agent rewritten").matcher(r.stderr);
        assertTrue(jdkClasses.find() && appClasses.find(), "the start line's counts\n" + r);
        assertEquals(Long.parseLong(jdkClasses.group(1)) + Long.parseLong(appClasses.group(1)),
                count(retransforms.get(0), "classes"), retransform + r);
        assertTrue(count(retransforms.get(0), "callSites") >= Long.parseLong(jdkClasses.group(2)), retransform);

        assertEquals(2, r.longValue("healthSamples"), "two TSC health samples within the app's deadline\n" + r);
        String health = jfrPrint(jdk, "fastclock.TscHealth", healthRec);
        List<JsonNode> samples = events(health, "fastclock.TscHealth");
        assertEquals(2, samples.size(), health);
        assertEquals("true", r.value("mbean"), "no MBean once the application had a platform server\n" + r);
        assertEquals("null", r.value("mbean.Fallback"), "the TSC clock fell back\n" + r);
        long reanchorsAfter = r.longValue("mbean.TscReanchors");
        long lateAfter = r.longValue("mbean.TscLateExtensions");
        long worstAfter = Math.abs(r.longValue("mbean.TscWorstErrorNanos"));
        long reanchors = 0;
        long late = 0;
        long worst = 0;
        for (JsonNode sample : samples) {
            String at = sample.toPrettyString() + "\n" + r;
            // Counts of one clock, taken in order and before the MBean's: they only grow, up to its.
            assertTrue(count(sample, "reanchors") >= Math.max(1, reanchors), "re-anchors\n" + at);
            reanchors = count(sample, "reanchors");
            assertTrue(count(sample, "lateExtensions") >= late, "late extensions went down\n" + at);
            late = count(sample, "lateExtensions");
            // The offset at the last re-anchor is one of those the worst offset is the largest of.
            long offset = Math.abs(nanos(sample, "offset"));
            assertTrue(offset <= Math.abs(nanos(sample, "worstOffset")), "offset beyond the worst offset\n" + at);
            assertTrue(Math.abs(nanos(sample, "worstOffset")) >= worst, "the worst offset went down\n" + at);
            worst = Math.abs(nanos(sample, "worstOffset"));
        }
        assertTrue(reanchors <= reanchorsAfter, "more re-anchors in the event than the clock counted later\n" + health + r);
        assertTrue(late <= lateAfter, "more late extensions in the event than the clock counted later\n" + health + r);
        assertTrue(worst <= worstAfter, "a worse offset in the event than the clock's worst later\n" + health + r);
        assertTrue(worstAfter < 2_000_000L, "past the fallback bound, yet no fallback\n" + r);
    }

    /**
     * At the defaults, a program of about a second recorded from the command line: the verdict comes
     * while it runs, and its Activation and Retransform events are committed then (a recording is
     * running), not at the observer's next look; the program returns from main as soon as it has
     * seen the verdict (issue 34: on 26aadc6 the recording held no fastclock event, 3 runs of 3).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void aOneSecondProgramAtTheDefaultsHasItsActivationInACommandLineRecording(Jdk jdk) throws Exception {
        HostMachine.assumeTscClock("an active verdict for the event to carry");
        Path rec = temp.resolve("short.jfr");
        ForkedJvm.Result r = ForkedJvm.on(jdk).slowClocksource(0).jvmArg(recordTo(rec))
                .main(ShortProgramApp.class, "1000").run();
        assertEquals(0, r.exitCode, r.toString());
        // JFR's own start-up runs before main (0.7 s here): the verdict may come before main or after it.
        assertTrue(r.value("verdict").startsWith("true"), "no active verdict while the program ran\n" + r);
        assertTrue(r.agentLines().get(0).endsWith("; decided in the background"), "not the default start\n" + r);
        String printed = jfrPrint(jdk, "fastclock.Activation,fastclock.Retransform", rec);
        List<JsonNode> activation = events(printed, "fastclock.Activation");
        assertEquals(1, activation.size(), printed + r);
        assertEquals("true", field(activation.get(0), "active"), printed);
        assertTrue(r.agentLines().get(0).endsWith(field(activation.get(0), "reason")), "the event's reason is the start line\n"
                + printed + r);
        assertEquals(1, events(printed, "fastclock.Retransform").size(), printed + r);
    }

    /**
     * A recording a program starts after the verdict and keeps {@value ShortProgramApp#RECORDED_MS} ms:
     * the pending activation is committed as the recording starts (the observer looks every 10 ms in
     * its first 10 s), not at a look once a second, which a recording this short mostly misses.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("oneJdk")
    void aShortRecordingStartedAfterTheVerdictHoldsTheActivation(Jdk jdk) throws Exception {
        HostMachine.assumeTscClock("an active verdict for the event to carry");
        Path rec = temp.resolve("late-short.jfr");
        ForkedJvm.Result r = ForkedJvm.on(jdk).slowClocksource(0).main(ShortProgramApp.class, "0", rec.toString()).run();
        assertEquals(0, r.exitCode, r.toString());
        assertTrue(r.value("verdict").startsWith("true"), "no active verdict while the program ran\n" + r);
        String printed = jfrPrint(jdk, "fastclock.Activation", rec);
        assertEquals(1, events(printed, "fastclock.Activation").size(), printed + r);
    }

    /** JFR started after the agent (as jcmd JFR.start does): the watcher notices, the activation and health follow. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void aRecordingStartedLaterStillGetsTheActivationAndTheTscHealth(Jdk jdk) throws Exception {
        HostMachine.assumeTscClock("the TSC clock's health in a later recording");
        Path rec = temp.resolve("late.jfr");
        Path healthRec = temp.resolve("late-health.jfr");
        ForkedJvm.Result r = ForkedJvm.on(jdk).slowClocksource(0)
                .main(LateRecordingApp.class, rec.toString(), healthRec.toString()).run();
        assertEquals(0, r.exitCode, r.toString());
        assertEquals(HostMachine.backendsWithTsc(), r.value("backends"), r.toString());
        assertEquals("up", r.value("agentJfr"), "the watcher did not notice JFR within the app's deadline\n" + r);
        String printed = jfrPrint(jdk, "fastclock.Activation", rec);
        List<JsonNode> activation = events(printed, "fastclock.Activation");
        assertEquals(1, activation.size(), printed);
        assertEquals("tsc", field(activation.get(0), "nanosBackend"), printed);
        assertEquals(1, r.longValue("healthSamples"), "a TSC health sample within the app's deadline\n" + r);
        String health = jfrPrint(jdk, "fastclock.TscHealth", healthRec);
        assertEquals(1, events(health, "fastclock.TscHealth").size(), health);
        assertTrue(count(events(health, "fastclock.TscHealth").get(0), "reanchors") >= 1, health);
    }

    /**
     * DemotionIT's fixture: tsc leaves available_clocksource while the JVM runs and records. The
     * test feeds available_clocksource; the TSC clock still needs the host's CPU (HostMachine).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("oneJdk")
    void aDemotedTscShowsExactlyOneFallback(Jdk jdk) throws Exception {
        HostMachine.assumeTscCpu("a TSC clock's fallback in JFR");
        Path sys = temp.resolve("sys");
        Path clocksource = sys.resolve("devices/system/clocksource/clocksource0");
        Files.createDirectories(clocksource);
        Files.write(clocksource.resolve("current_clocksource"), "hpet\n".getBytes());
        Path available = clocksource.resolve("available_clocksource");
        Files.write(available, "tsc hpet acpi_pm\n".getBytes());
        Path rec = temp.resolve("fallback.jfr");

        ForkedJvm.Result r = ForkedJvm.on(jdk).jvmArg(recordTo(rec))
                .agentArgs("mode=on,jmx=on,recheck=" + DemotionIT.RECHECK_MS + ",sysfs=" + sys)
                .main(DemotionApp.class, available.toString(), "1", "1", "2500").run();
        assertEquals(0, r.exitCode, r.toString());
        assertEquals(HostMachine.backendsWithTsc(), r.value("backends"), r.toString());
        assertEquals(1, r.longValue("fallbackLines"), r.toString());

        String printed = jfrPrint(jdk, "fastclock.Fallback", rec);
        System.out.println("[JfrIT] " + jdk + ": jfr print --json --events fastclock.Fallback\n" + printed);
        List<JsonNode> fallbacks = events(printed, "fastclock.Fallback");
        assertEquals(1, fallbacks.size(), "exactly one fallback\n" + printed);
        JsonNode f = fallbacks.get(0);
        assertTrue(field(f, "reason").contains("no longer lists tsc in available_clocksource"), printed);
        assertTrue(r.stderr.contains(field(f, "reason")), "the event's reason is the stderr line's\n" + printed + r);
        // The clock's figures stop at the fallback (its anchor thread ends there): the event holds
        // exactly those the MBean reads afterwards.
        assertTrue(count(f, "reanchors") >= 1, printed);
        assertEquals(r.longValue("mbean.TscReanchors"), count(f, "reanchors"), printed + r);
        assertEquals(r.longValue("mbean.TscFallbackErrorNanos"), nanos(f, "error"), "error at fallback\n" + printed + r);
        assertEquals(r.longValue("mbean.TscLastErrorNanos"), nanos(f, "lastError"), printed + r);
        assertEquals(r.longValue("mbean.TscWorstErrorNanos"), nanos(f, "worstError"), printed + r);

        // The health samples stop at the fallback: the clock ran 2.5 s before it, so there were some
        // (one a second), and none comes after.
        String health = jfrPrint(jdk, "fastclock.TscHealth", rec);
        assertFalse(events(health, "fastclock.TscHealth").isEmpty(), "no TscHealth event while the TSC clock ran\n" + health);
        for (JsonNode sample : events(health, "fastclock.TscHealth")) {
            assertTrue(startTime(sample).isBefore(startTime(f)), "a TscHealth event after the fallback\n" + health + printed);
        }
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
        if (HostMachine.hasTscClock()) {
            assertEquals(HostMachine.backendsWithTsc(), active.value("backends"), active.toString());
        } // else: active with the coarse clock; what matters here is that nothing mentions JFR
        List<String> verdict = BusyHost.withoutUndecided(active.agentLines());
        assertEquals(1, verdict.size(), "one line, the start line\n" + active);
        assertTrue(verdict.get(0).startsWith("fastclock: active:"), active.toString());
        assertEquals("true", active.value("mbean"), active.toString());
        assertFalse(active.stderr.toLowerCase(Locale.ROOT).contains("jfr"), active.toString());

        // A fast machine fed to the agent, so that it is inactive on any host.
        ForkedJvm.Result inactive = ForkedJvm.on(small).agentArgs(Fixtures.fastMachine()).main(ObserveApp.class).run();
        assertEquals(0, inactive.exitCode, inactive.toString());
        assertEquals(Arrays.asList(inactive.stderr.trim()), inactive.agentLines(), inactive.toString());
        assertTrue(inactive.stderr.startsWith("fastclock: inactive:"), inactive.toString());
    }
}
