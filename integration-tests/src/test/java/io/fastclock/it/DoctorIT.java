package io.fastclock.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * java -jar fastclock.jar: the report a person reads, and its JSON form.
 *
 * <p>Proves, in docs/CONTRACT.md: report.doctor, millis.lag.
 */
class DoctorIT {
    /** The JSON report with real measurements: on every JDK (the module, JNA and native access differ). */
    static List<Jdk> jdks() {
        return Jdk.all();
    }

    /** The rest reads the doctor's text, fixtures and exit statuses, which do not depend on the JDK. */
    static List<Jdk> oneJdk() {
        return Jdk.one();
    }

    @TempDir
    Path temp;

    private static ForkedJvm doctor(Jdk jdk, String... args) {
        return ForkedJvm.on(jdk).withoutAgent().jar(ForkedJvm.agentJar(), args);
    }

    /**
     * The doctor on a fast machine fed to it as -Dfastclock.* settings (Fixtures.fastMachine: the
     * tsc fixture, threshold 1 ms), so that what it says auto would do ("inactive") holds on any
     * host; everything it measures is still this host's.
     */
    private static ForkedJvm doctorOnAFastMachine(Jdk jdk, String... args) {
        List<String> properties = new ArrayList<>();
        for (String setting : Fixtures.fastMachine().split(",")) {
            properties.add("-Dfastclock." + setting);
        }
        return doctor(jdk, args).jvmArg(properties.toArray(new String[0]));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void theJsonReportParsesAndHoldsRealMeasurements(Jdk jdk) throws Exception {
        ForkedJvm.Result r = doctorOnAFastMachine(jdk, "--json").run();
        assertEquals(0, r.exitCode, r.toString());
        assertEquals("", r.stderr.trim(), "the doctor printed warnings\n" + r);
        JsonNode json = new ObjectMapper().readTree(r.stdout);
        assertTrue(json.path("native").path("loaded").asBoolean(), r.stdout);
        assertTrue(json.path("javaNanosPerCall").path("System.nanoTime()").asDouble() > 0, r.stdout);
        assertTrue(json.path("nativeNanosPerCall").path("clock_gettime(CLOCK_MONOTONIC)").asDouble() > 0, r.stdout);
        assertFalse(json.path("auto").path("active").asBoolean(), "auto must leave a fast tsc machine alone\n" + r.stdout);
        assertTrue(json.path("forcedOn").path("active").asBoolean(), r.stdout);
        // The fixture says the kernel trusts the TSC; whether there is a TSC clock is the real CPU's.
        assertEquals(HostMachine.tscCpuProblem() == null ? "tsc" : "system",
                json.path("forcedOn").path("nanos").path("backend").asText(), r.stdout);
        assertMillisLagKeepsTheContract(json, r);
        assertTscReadsAndLimits(json, r);
    }

    /**
     * The TSC reads the clock uses: an ordered one for nanoTime (never the unordered rdtsc), the
     * unordered one for millis, each timed in C; and a LIMIT (JNI no-op + the read in C) for each
     * TSC clock, which is therefore above the no-op's own cost.
     */
    private static void assertTscReadsAndLimits(JsonNode json, ForkedJvm.Result r) {
        JsonNode reads = json.path("tscReads");
        String nanosRead = reads.path("nanos").asText();
        assertTrue(List.of("rdtscp", "lfence; rdtsc", "mfence; rdtsc").contains(nanosRead), "nanoTime read: " + r.stdout);
        assertEquals("rdtsc (unordered)", reads.path("millis").asText(), r.stdout);
        assertTrue(reads.path("costNanos").path(nanosRead).asDouble() > 0, r.stdout);
        assertTrue(reads.path("costNanos").path("rdtsc (unordered)").asDouble() > 0, r.stdout);
        double noop = json.path("javaNanosPerCall").path("JNI no-op call (the transition alone)").asDouble();
        assertTrue(noop > 0, r.stdout);
        JsonNode limits = json.path("limitNanosPerCall");
        for (String clock : List.of("tsc nanos", "tsc millis", "coarse millis (JNI CLOCK_REALTIME_COARSE)")) {
            assertTrue(limits.path(clock).asDouble() > noop, clock + ": " + r.stdout);
        }
        assertEquals(noop + json.path("nativeNanosPerCall").path(nanosRead).asDouble(),
                limits.path("tsc nanos").asDouble(), 0.002, r.stdout); // each printed to 0.001 ns
    }

    /**
     * Every millis backend the doctor could build here has a measured lag, and it is within what the
     * backend states. A contract bound, not a timing threshold: the doctor brackets each read with
     * reference reads so that a descheduled thread can only make the measured lag smaller.
     */
    private static void assertMillisLagKeepsTheContract(JsonNode json, ForkedJvm.Result r) {
        JsonNode lag = json.path("millisLag");
        assertTrue(lag.path("reference").asText().contains("CLOCK_REALTIME"), r.stdout);
        JsonNode backends = lag.path("backends");
        // The JNI library loads and the TSC is usable here (asserted above); jna-coarse wherever JNA loaded.
        assertTrue(backends.has("coarse") && backends.has("tsc"), "no measured lag for coarse or tsc\n" + r.stdout);
        assertEquals(json.path("jna").path("available").asBoolean(), backends.has("jna-coarse"), r.stdout);
        long aheadBound = lag.path("aheadBoundNs").asLong();
        assertEquals(1_000_000L, aheadBound, r.stdout);
        backends.fields().forEachRemaining(e -> {
            JsonNode b = e.getValue();
            String what = e.getKey() + ": " + b + "\n" + r.stdout;
            assertTrue(b.path("reads").asLong() > 0, what);
            assertTrue(b.path("statedLagNs").isNumber(), what);
            assertTrue(b.path("worstBehindNs").isNumber() && b.path("worstAheadNs").isNumber(), what);
            assertTrue(b.path("worstBehindNs").asLong() <= b.path("statedLagNs").asLong(),
                    "measured lag over the stated lag: " + what);
            assertTrue(b.path("worstAheadNs").asLong() <= aheadBound, "ran ahead by more than 1 ms: " + what);
            assertTrue(b.path("withinContract").asBoolean(), what);
        });
        long tick = json.path("native").path("realtimeCoarseResolutionNs").asLong();
        // What the machine shows plus a tick, never below two ticks (CoarseLag).
        long coarseStated = backends.path("coarse").path("statedLagNs").asLong();
        assertTrue(coarseStated >= 2 * tick, r.stdout);
        assertTrue(coarseStated >= backends.path("coarse").path("worstBehindNs").asLong() + tick, r.stdout);
        assertEquals(1_000_000L, backends.path("tsc").path("statedLagNs").asLong(), r.stdout);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("oneJdk")
    void theTextReportSaysWhatAutoWouldDo(Jdk jdk) throws Exception {
        ForkedJvm.Result r = doctorOnAFastMachine(jdk).run();
        assertEquals(0, r.exitCode, r.toString());
        assertTrue(r.stdout.contains("clocksource"), r.stdout);
        assertTrue(r.stdout.contains("auto (the default): inactive"), r.stdout);
        assertTrue(r.stdout.contains("mode=on (forced): ACTIVE"), r.stdout);
        assertTrue(r.stdout.contains("System.currentTimeMillis()"), r.stdout);
        assertTrue(r.stdout.contains("Millis lag against CLOCK_REALTIME"), r.stdout);
        assertTrue(r.stdout.matches("(?s).*\\n  coarse +[0-9]+ +-?[0-9.]+ [mun]s +[0-9.]+ ms +-?[0-9.]+ [mun]s +kept\\n.*"), r.stdout);
        assertTrue(r.stdout.contains("\n  TSC reads          nanoTime: "), r.stdout);
        assertTrue(r.stdout.matches("(?s).*\\n  tsc nanos +[0-9.]+ +[0-9.]+ +-?[0-9]+% +(rdtscp|lfence; rdtsc|mfence; rdtsc)\\n.*"), r.stdout);
        assertTrue(r.stdout.matches("(?s).*\\n  tsc millis +[0-9.]+ +[0-9.]+ +-?[0-9]+% +rdtsc \\(unordered\\)\\n.*"), r.stdout);
        assertVerdictsQuoteTheTable(r.stdout);
    }

    /**
     * The doctor agrees with itself: the TSC cost each clock's verdict quotes ("the TSC clock (27 ns a
     * TSC read)") is the figure its table shows for the read that clock uses, in the start-up column.
     */
    static void assertVerdictsQuoteTheTable(String report) {
        long nanosRead = startupFigure(report, "nanoTime's TSC read via JNI \\(ordered\\)");
        long millisRead = startupFigure(report, "currentTimeMillis's TSC read via JNI \\(rdtsc\\)");
        java.util.regex.Matcher quoted = java.util.regex.Pattern.compile(
                "\\n    (currentTimeMillis|nanoTime) +-> [^\\n]*the TSC clock \\(([0-9.]+) ns a TSC read\\)").matcher(report);
        assertTrue(quoted.find(), "no verdict quotes the TSC read\n" + report);
        do {
            long expected = quoted.group(1).equals("nanoTime") ? nanosRead : millisRead;
            assertEquals(expected, Math.round(Double.parseDouble(quoted.group(2))), "the " + quoted.group(1) + " verdict quotes a"
                    + " TSC figure other than the table's for its read\n" + report);
        } while (quoted.find());
    }

    private static long startupFigure(String report, String row) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\n  " + row + " +- +start-up ([0-9.]+)\\n").matcher(report);
        assertTrue(m.find(), "no start-up figure for " + row + "\n" + report);
        return Math.round(Double.parseDouble(m.group(1)));
    }

    /**
     * A machine whose kernel dropped the TSC (fixture hpet-tsc-demoted): the doctor says, in text and
     * JSON, that java.time keeps the JDK's read, the date APIs' millisecond reads go to the coarse
     * clock, and what instant=coarse would do; with instant=coarse, that the coarse clock serves it.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("oneJdk")
    void onACoarseOnlyMachineItSaysWhoServesTheJdksClockReads(Jdk jdk) throws Exception {
        Path machine = Fixtures.machine("hpet-tsc-demoted");
        String[] fixture = {"-Dfastclock.sysfs=" + machine.resolve("sys"), "-Dfastclock.procfs=" + machine.resolve("proc")};
        ForkedJvm.Result text = ForkedJvm.on(jdk).withoutAgent().jvmArg(fixture).jar(ForkedJvm.agentJar()).run();
        assertEquals(0, text.exitCode, text.toString());
        assertTrue(text.stdout.matches("(?s).*\\n    JDK clock reads   -> java\\.time stays on the JDK's clock \\(no TSC clock;"
                + " instant=coarse would serve it at [0-9.]+ ms resolution\\); Date/Calendar/Clock\\.millis -> coarse"
                + " \\(jdk=time\\)\\n.*"), text.stdout);
        ForkedJvm.Result json = ForkedJvm.on(jdk).withoutAgent().jvmArg(fixture).jvmArg("-Dfastclock.instant=coarse")
                .jar(ForkedJvm.agentJar(), "--json").run();
        assertEquals(0, json.exitCode, json.toString());
        JsonNode javaTime = new ObjectMapper().readTree(json.stdout).path("auto").path("javaTime");
        assertEquals("coarse", javaTime.path("epoch").asText(), json.stdout);
        assertEquals("coarse", javaTime.path("millisReads").asText(), json.stdout);
        assertTrue(javaTime.path("reason").asText().startsWith("java.time -> coarse at "), json.stdout);
    }

    /** The doctor on a machine without a TSC (hpet-tsc-demoted), under the simulator, the coarse clock held back. */
    private ForkedJvm.Result doctorOnCoarseMachine(Jdk jdk, Path machine, String coarseLag) throws Exception {
        return ForkedJvm.on(jdk).withoutAgent().slowClocksource(0).env("SLOWCLOCK_COARSE_LAG", coarseLag)
                .jvmArg("-Dfastclock.sysfs=" + machine.resolve("sys"), "-Dfastclock.procfs=" + machine.resolve("proc"))
                .jar(ForkedJvm.agentJar(), "--json").run();
    }

    /**
     * The lag table's verdict and auto's choice never disagree: a coarse clock that keeps the L it
     * would state is chosen with that L; one whose lag is over the cap is BROKEN and not chosen.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("oneJdk")
    void theLagVerdictAndAutosChoiceAgree(Jdk jdk) throws Exception {
        Path machine = Fixtures.machine("hpet-tsc-demoted");
        ForkedJvm.Result late = doctorOnCoarseMachine(jdk, machine, "0:3");
        assertEquals(0, late.exitCode, late.toString());
        JsonNode json = new ObjectMapper().readTree(late.stdout);
        JsonNode coarse = json.path("millisLag").path("backends").path("coarse");
        assertTrue(coarse.path("withinContract").asBoolean(), late.stdout);
        assertEquals("coarse", json.path("auto").path("millis").path("backend").asText(), late.stdout);
        assertEquals(coarse.path("statedLagNs").asLong(), json.path("auto").path("millis").path("lagNs").asLong(), late.stdout);

        ForkedJvm.Result wild = doctorOnCoarseMachine(jdk, machine, "0:30");
        assertEquals(0, wild.exitCode, wild.toString());
        json = new ObjectMapper().readTree(wild.stdout);
        coarse = json.path("millisLag").path("backends").path("coarse");
        assertFalse(coarse.path("withinContract").asBoolean(), wild.stdout);
        assertTrue(coarse.path("worstBehindNs").asLong() >= 30_000_000L, wild.stdout);
        JsonNode millis = json.path("auto").path("millis");
        assertEquals("system", millis.path("backend").asText(), wild.stdout);
        assertTrue(millis.path("reason").asText().contains("behind CLOCK_REALTIME"), wild.stdout);
        assertFalse(json.path("forcedOn").path("millis").path("backend").asText().contains("coarse"), wild.stdout);
    }

    /**
     * Without the JNI library, under the simulator without a spin (currentTimeMillis about 200 ns here): the
     * doctor loads JNA to report on it, but says what auto does, which is not to load it (JnaFallbackIT),
     * so auto stays on the system clock and says why; it said jna-coarse before the rule was applied to it.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("oneJdk")
    void autosJnaRuleIsTheAgentsInTheDoctorToo(Jdk jdk) throws Exception {
        ForkedJvm.Result r = ForkedJvm.on(jdk).withoutAgent().slowClocksource(0).jvmArg("-Dfastclock.library=/nonexistent.so")
                .jar(ForkedJvm.agentJar(), "--json").run();
        assertEquals(0, r.exitCode, r.toString());
        JsonNode json = new ObjectMapper().readTree(r.stdout);
        assertTrue(json.path("jna").path("available").asBoolean(), r.stdout);
        JsonNode millis = json.path("auto").path("millis");
        Matcher cost = Pattern.compile("System\\.currentTimeMillis costs (\\d+) ns").matcher(millis.path("reason").asText());
        assertTrue(cost.find(), r.stdout);
        Assumptions.assumeTrue(Long.parseLong(cost.group(1)) < 420,
                "the simulated clock costs " + cost.group(1) + " ns on this machine: JNA is worth loading here");
        assertEquals("system", millis.path("backend").asText(), r.stdout);
        assertTrue(millis.path("reason").asText().contains("JNA was not looked for: currentTimeMillis costs at most"), r.stdout);
        assertEquals("system", json.path("forcedOn").path("millis").path("backend").asText(), r.stdout);
    }

    /**
     * Where the kernel left the TSC out of available_clocksource and the CPU lacks flags, the doctor
     * says all of it, not only the first reason the decision stops at.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("oneJdk")
    void theDoctorSaysEveryReasonTheTscIsOut(Jdk jdk) throws Exception {
        Path machine = Fixtures.copy("hpet-tsc-demoted", temp.resolve("guest"));
        Fixtures.removeCpuFlag(machine, "constant_tsc");
        Fixtures.removeCpuFlag(machine, "nonstop_tsc");
        ForkedJvm.Result r = ForkedJvm.on(jdk).withoutAgent()
                .jvmArg("-Dfastclock.sysfs=" + machine.resolve("sys"), "-Dfastclock.procfs=" + machine.resolve("proc"))
                .jar(ForkedJvm.agentJar()).run();
        assertEquals(0, r.exitCode, r.toString());
        assertTrue(r.stdout.contains("  TSC not used       by the agent, for each of these reasons:\n"), r.stdout);
        assertTrue(r.stdout.contains("the kernel left tsc out of available_clocksource (hpet acpi_pm)"), r.stdout);
        assertTrue(r.stdout.matches("(?s).*the CPU lacks constant_tsc \\([^)]*\\), nonstop_tsc \\(.*"), r.stdout);

        ForkedJvm.Result json = ForkedJvm.on(jdk).withoutAgent()
                .jvmArg("-Dfastclock.sysfs=" + machine.resolve("sys"), "-Dfastclock.procfs=" + machine.resolve("proc"))
                .jar(ForkedJvm.agentJar(), "--json").run();
        JsonNode problems = new ObjectMapper().readTree(json.stdout).path("tsc").path("staticProblems");
        assertEquals(2, problems.size(), json.stdout);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("oneJdk")
    void anUnknownArgumentIsAUsageError(Jdk jdk) throws Exception {
        ForkedJvm.Result r = doctor(jdk, "--jsn").run();
        assertEquals(2, r.exitCode, r.toString());
        assertEquals("", r.stdout, r.toString());
        assertTrue(r.stderr.contains("'--jsn'") && r.stderr.contains("--help"), r.toString());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("oneJdk")
    void aMachineItCannotReadIsReportedNotACrash(Jdk jdk) throws Exception {
        ForkedJvm.Result r = ForkedJvm.on(jdk).withoutAgent().jvmArg("-Dfastclock.sysfs=" + temp.resolve("none"),
                "-Dfastclock.procfs=" + temp.resolve("none")).jar(ForkedJvm.agentJar(), "--json").run();
        assertEquals(0, r.exitCode, r.toString());
        JsonNode json = new ObjectMapper().readTree(r.stdout);
        assertTrue(json.path("machine").path("problems").size() > 0, r.stdout);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("oneJdk")
    void anUnexpectedFailureIsOneLineAndExitStatus1(Jdk jdk) throws Exception {
        // A jar missing one class the report needs stands for any failure nobody anticipated.
        Path broken = withoutEntries(ForkedJvm.agentJar(), temp.resolve("fastclock-broken.jar"),
                "META-INF/fastclock/classes/io/fastclock/measure/MillisLagMeter");
        ForkedJvm.Result json = ForkedJvm.on(jdk).withoutAgent().jar(broken, "--json").run();
        assertEquals(1, json.exitCode, json.toString());
        assertTrue(new ObjectMapper().readTree(json.stdout).path("error").asText()
                .startsWith("fastclock doctor: could not complete the report: java.lang.NoClassDefFoundError"), json.toString());
        assertOneLine(json);

        ForkedJvm.Result text = ForkedJvm.on(jdk).withoutAgent().jar(broken).run();
        assertEquals(1, text.exitCode, text.toString());
        assertEquals("", text.stdout, text.toString());
        assertOneLine(text);
    }

    /** {JDK, clocks, the agent's arguments, --json}: active and inactive, decided before main and after it. */
    static List<org.junit.jupiter.params.provider.Arguments> agentsAround() {
        List<org.junit.jupiter.params.provider.Arguments> out = new ArrayList<>();
        // Where fastclock defined its runtime, how the doctor reaches it differs by JDK (11 exports it
        // another way): every JDK. Where it defined nothing (inactive at the entry, mode=off): one.
        List<Jdk> one = Jdk.one();
        for (Jdk jdk : Jdk.all()) {
            if (!one.isEmpty() && one.get(0).feature == jdk.feature) {
                out.add(org.junit.jupiter.params.provider.Arguments.of(jdk, "fast clocks", "", false));
                out.add(org.junit.jupiter.params.provider.Arguments.of(jdk, "slow clocks", "mode=off", false));
            }
            out.add(org.junit.jupiter.params.provider.Arguments.of(jdk, "fast clocks", "mode=on,start=wait", true));
            out.add(org.junit.jupiter.params.provider.Arguments.of(jdk, "slow clocks", "", true));
        }
        return out;
    }

    /**
     * Issue 36: the doctor inside a JVM where fastclock runs as an agent too, as a container's
     * JAVA_TOOL_OPTIONS puts it in every JVM: the full report, text and JSON, exit 0, nothing on stderr
     * but the JVM's "Picked up" line and the agent's own lines (on 26aadc6: an IllegalAccessError, a
     * warning about the doctor's own class loader, and exit 0 with nothing on stdout).
     */
    @ParameterizedTest(name = "{0}, {1}, agent {2}, json {3}")
    @MethodSource("agentsAround")
    void theDoctorReportsInAJvmWhereFastclockRunsToo(Jdk jdk, String clocks, String agentArgs, boolean json) throws Exception {
        String agent = "-javaagent:" + ForkedJvm.agentJar() + (agentArgs.isEmpty() ? "" : "=" + agentArgs);
        ForkedJvm jvm = ForkedJvm.on(jdk).withoutAgent().env("JAVA_TOOL_OPTIONS", agent);
        if (clocks.equals("slow clocks")) {
            jvm.slowClocksource(0);
        }
        ForkedJvm.Result r = (json ? jvm.jar(ForkedJvm.agentJar(), "--json") : jvm.jar(ForkedJvm.agentJar())).run();
        String context = clocks + ", " + agent + (json ? " --json" : "") + "\n" + r;
        assertEquals(0, r.exitCode, context);
        for (String line : r.stderr.split("\n")) {
            assertTrue(line.isEmpty() || line.startsWith("Picked up JAVA_TOOL_OPTIONS") || line.startsWith("fastclock: ")
                    && !line.contains("could not") && !line.contains("class loader"), "stderr: " + line + "\n" + context);
        }
        if (json) {
            JsonNode report = new ObjectMapper().readTree(r.stdout);
            assertFalse(report.has("error"), context);
            assertTrue(report.path("javaNanosPerCall").path("System.nanoTime()").asDouble() > 0, context);
            assertTrue(report.path("auto").has("active") && report.path("forcedOn").path("active").asBoolean(), context);
        } else {
            if (HostMachine.hasTscClock()) {
                assertVerdictsQuoteTheTable(r.stdout);
            }
            assertTrue(r.stdout.contains("System.currentTimeMillis()"), context);
        }
    }

    private static void assertOneLine(ForkedJvm.Result r) {
        String err = r.stderr.trim();
        assertEquals(1, err.split("\n").length, "one line, no stack trace\n" + r);
        assertTrue(err.startsWith("fastclock doctor: could not complete the report: ") && err.contains("MillisLagMeter"),
                r.toString());
    }

    /** A copy of a jar without the entries whose names start with any of the prefixes. */
    private static Path withoutEntries(Path jar, Path copy, String... prefixes) throws Exception {
        try (InputStream raw = Files.newInputStream(jar); ZipInputStream in = new ZipInputStream(raw);
                OutputStream rawOut = Files.newOutputStream(copy); ZipOutputStream out = new ZipOutputStream(rawOut)) {
            entries:
            for (ZipEntry e; (e = in.getNextEntry()) != null; ) {
                for (String prefix : prefixes) {
                    if (e.getName().startsWith(prefix)) {
                        continue entries;
                    }
                }
                out.putNextEntry(new ZipEntry(e.getName()));
                in.transferTo(out);
                out.closeEntry();
            }
        }
        return copy;
    }
}
