package io.fastclock.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fastclock.it.apps.AttachTargetApp;
import io.fastclock.it.apps.BackgroundSwitchApp;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code java -jar fastclock.jar attach|status|detach PID} against real JVMs that run without the
 * agent: under the slow-clocksource simulator their reads stop reaching it once attached (the
 * simulator's count), nanoTime never goes backwards across the switch, millis stays in bounds, and
 * the program finishes; plus every error the commands promise, a runtime without jdk.attach, and
 * detach. The command runs on the same JDK as its target.
 *
 * <p>Proves, in docs/CONTRACT.md: attach.switch, attach.detach, attach.errors, millis.lag,
 * nanos.monotonic, activation.auto, activation.off, host.bad-setting, host.failure-runs,
 * host.quiet.
 */
class AttachIT {
    /** What the counted window may still read after the attach: a few reads, not one per call. */
    static final long MAX_SLOW_READS_AFTER_ATTACH = 50;
    static final String JEP_451 = "A Java agent has been loaded dynamically";

    @TempDir
    Path temp;

    static List<Arguments> jdksAndLoaders() {
        List<Arguments> cases = new ArrayList<>();
        for (Jdk jdk : Jdk.all()) {
            cases.add(Arguments.of(jdk, 0));
            cases.add(Arguments.of(jdk, 3));
        }
        return cases;
    }

    static List<Jdk> jdks() {
        return Jdk.all();
    }

    @ParameterizedTest(name = "{0}, {1} class-loading threads")
    @MethodSource("jdksAndLoaders")
    void attachedProgramStopsReadingTheSlowClockAndKeepsItsValuesRight(Jdk jdk, int loaderThreads) throws Exception {
        // Both clocks must leave the slow clocksource (the count), and millis keep the TSC clock's 1 ms.
        HostMachine.assumeTscClock("attaching the TSC clock to a running program");
        SlowReadCount count = SlowReadCount.create();
        Path trigger = temp.resolve("go");
        ForkedJvm target = count.underSimulator(ForkedJvm.on(jdk).withoutAgent(), 0).classPath(ConcurrentLoadIT.classPathWithAsm())
                .main(AttachTargetApp.class, Integer.toString(loaderThreads), trigger + ":count");
        ForkedJvm.Result r;
        ForkedJvm.Result attach;
        try (ForkedJvm.Running app = target.start()) {
            app.awaitLine("waiting=1");
            attach = command(jdk, "attach", Long.toString(app.pid()), "mode=on");
            Files.createFile(trigger);
            r = app.finish();
        }
        SlowReadCount.Counts counts = count.read();
        System.out.println("[AttachIT] " + jdk + ", " + loaderThreads + " loaders: " + counts + " | "
                + r.stdout.replace('\n', ' ') + " | " + attach.stdout.replace('\n', ' '));
        assertEquals(0, attach.exitCode, attach.toString());
        assertTrue(attach.stdout.contains("fastclock is active in JVM " + r.value("pid")), attach.toString());
        assertTrue(attach.stdout.contains("loaded by agentmain"), attach.toString());
        assertEquals(jdk.feature >= 21, attach.stdout.contains("JEP 451"), "the JDK 21+ note\n" + attach);
        assertEquals(0, r.exitCode, r.toString());
        assertEquals("true", r.value("finished"), r.toString());
        assertPhasesRan(r, 1, 1);
        assertEquals(HostMachine.backendsWithTsc(), r.value("backends"), r.toString());
        assertEquals(0, r.longValue("errors"), r.value("firstError"));
        assertEquals(0, r.longValue("backwards"), "nanoTime went backwards across the switch\n" + r);
        assertTrue(r.longValue("millisAheadMax") <= 1, "millis ahead of the reference by more than 1 ms\n" + r);
        long lagMs = HostMachine.millisBackendWithTsc().equals("tsc") ? 1 : 2; // coarse on a 1 ms tick: two ticks
        assertTrue(r.longValue("millisBehindMax") <= lagMs, "millis behind the reference by more than " + lagMs + " ms\n" + r);
        assertTrue(r.longValue("clockReads") > 0, r.toString());
        if (loaderThreads > 0) {
            assertTrue(r.longValue("generated") > 100, "the loaders defined too few classes to mean anything\n" + r);
        }
        assertTrue(counts.inCountedThreads() <= MAX_SLOW_READS_AFTER_ATTACH, "after the attach the program still reaches"
                + " the slow clocksource (" + AttachTargetApp.READS + " nanoTime and millis calls and " + r.value("generated")
                + " generated classes' run() in the window): " + counts + "\n" + r);
        assertOnlyTheAgentLineAndJep451(jdk, r.stderr);
    }

    /** The control: the same program, nothing attached, reads the slow clock at every call. */
    @Test
    void withoutAttachTheSameProgramReadsTheSlowClockAtEveryCall() throws Exception {
        SlowReadCount count = SlowReadCount.create();
        Path trigger = temp.resolve("go");
        ForkedJvm.Result r;
        try (ForkedJvm.Running app = count.underSimulator(ForkedJvm.on(Jdk.current()).withoutAgent(), 0)
                .classPath(ConcurrentLoadIT.classPathWithAsm())
                .main(AttachTargetApp.class, "3", trigger + ":count").start()) {
            app.awaitLine("waiting=1");
            Files.createFile(trigger);
            r = app.finish();
        }
        SlowReadCount.Counts counts = count.read();
        assertEquals(0, r.exitCode, r.toString());
        assertPhasesRan(r, 1, 1);
        assertEquals("none", r.value("backends"), r.toString());
        assertTrue(counts.inCountedThreads() >= AttachTargetApp.READS + 2 * r.longValue("generated"), counts + "\n" + r);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void detachRestoresTheOriginalCodeAndValuesStayRight(Jdk jdk) throws Exception {
        // The 1 ms bounds below are the TSC clock's (a coarse millis lags by two kernel ticks).
        HostMachine.assumeTscClock("detaching the TSC clock");
        SlowReadCount count = SlowReadCount.create();
        Path first = temp.resolve("attached");
        Path second = temp.resolve("detached");
        ForkedJvm.Result r;
        ForkedJvm.Result attach;
        ForkedJvm.Result detach;
        ForkedJvm.Result status;
        ForkedJvm.Result statusText;
        try (ForkedJvm.Running app = count.underSimulator(ForkedJvm.on(jdk).withoutAgent(), 0)
                .classPath(ConcurrentLoadIT.classPathWithAsm())
                .main(AttachTargetApp.class, "0", first + ":run", second + ":count").start()) {
            app.awaitLine("waiting=1");
            String pid = Long.toString(app.pid());
            attach = command(jdk, "attach", pid, "mode=on");
            Files.createFile(first);
            app.awaitLine("waiting=2");
            detach = command(jdk, "detach", pid);
            status = command(jdk, "status", pid, "--json");
            statusText = command(jdk, "status", pid);
            if (jdk.feature == Runtime.version().feature()) {
                // What an operator meets next: the commands tell the truth about a detached copy.
                ForkedJvm.Result again = command(jdk, "detach", pid);
                assertEquals(0, again.exitCode, again.toString());
                assertTrue(again.stdout.contains("fastclock was already detached from JVM " + pid + " ("), again.toString());
                ForkedJvm.Result reattach = command(jdk, "attach", pid, "mode=on");
                assertEquals(3, reattach.exitCode, reattach.toString());
                assertTrue(reattach.stdout.contains("a JVM takes fastclock once: to run it with other settings, restart the JVM"
                        + " with -javaagent:"), reattach.toString());
            }
            Files.createFile(second);
            r = app.finish();
        }
        SlowReadCount.Counts counts = count.read();
        System.out.println("[AttachIT] detach on " + jdk + ": " + counts + " | " + detach.stdout.replace('\n', ' '));
        assertEquals(0, attach.exitCode, attach.toString());
        assertEquals(0, detach.exitCode, detach.toString());
        assertTrue(detach.stdout.contains("detached: original code of"), detach.toString());
        JsonNode json = new ObjectMapper().readTree(status.stdout);
        assertFalse(json.get("active").asBoolean(), status.stdout);
        assertEquals("system", json.path("nanos").path("backend").asText(), status.stdout);
        assertTrue(json.get("summary").asText().startsWith("fastclock: detached"), status.stdout);
        String built;
        try (java.util.jar.JarFile jar = new java.util.jar.JarFile(ForkedJvm.agentJar().toFile())) {
            built = jar.getManifest().getMainAttributes().getValue("Implementation-Version");
        }
        assertEquals(built, json.get("version").asText(), "status shows another version than the jar's\n" + status.stdout);
        assertFalse(status.stdout.contains("being detached"), "the state reads as if the detach were still going on\n" + status.stdout);
        // The TSC clock ran (mode=on on a TSC host); its figures stopped at the detach and must not read as live.
        assertTrue(statusText.stdout.contains("TSC clock:         until the detach: worst error"), statusText.toString());
        assertTrue(statusText.stdout.contains("rewritten:         until the detach: "), statusText.toString());
        // In the JSON every field stays (docs/JSON.md); the TSC clock's figures are null.
        for (JsonNode figure : json.path("tscClock")) {
            assertTrue(figure.isNull(), "the JSON shows the TSC clock's figures after the detach\n" + status.stdout);
        }
        assertEquals(3, json.path("tscClock").size(), status.stdout);
        assertEquals(0, r.exitCode, r.toString());
        assertEquals("true", r.value("finished"), r.toString());
        assertPhasesRan(r, 2, 1);
        assertEquals(0, r.longValue("backwards"), "nanoTime went backwards across attach or detach\n" + r);
        assertTrue(r.longValue("millisAheadMax") <= 1, r.toString());
        assertTrue(r.longValue("millisBehindMax") <= 1, r.toString());
        // The original code runs again: every currentTimeMillis call in the window is a slow read (and
        // every nanoTime call, from JDK 17 on).
        assertTrue(counts.inCountedThreads() >= AttachTargetApp.READS, "after detach: " + counts + "\n" + r);
    }

    /** A fast machine fed to the attached agent (Fixtures.fastMachine), so that auto stays out on any host. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void autoOnAFastMachineStaysInactiveAndChangesNothing(Jdk jdk) throws Exception {
        Path trigger = temp.resolve("go");
        ForkedJvm.Result r;
        ForkedJvm.Result attach;
        try (ForkedJvm.Running app = ForkedJvm.on(jdk).withoutAgent().classPath(ConcurrentLoadIT.classPathWithAsm())
                .main(AttachTargetApp.class, "0", trigger + ":run").start()) {
            app.awaitLine("waiting=1");
            attach = command(jdk, "attach", Long.toString(app.pid()), Fixtures.fastMachine());
            Files.createFile(trigger);
            r = app.finish();
        }
        assertEquals(3, attach.exitCode, attach.toString());
        assertTrue(attach.stdout.contains("fastclock started but is inactive"), attach.toString());
        assertTrue(attach.stdout.contains("system clocks are fast here"), "the output says why\n" + attach);
        assertFalse(attach.stdout.contains("rewritten:"), attach.toString());
        assertEquals(0, r.exitCode, r.toString());
        assertPhasesRan(r, 1, 0);
        // Nothing was retransformed: the fastclock runtime was never even defined.
        assertEquals("none", r.value("backends"), r.toString());
        assertOnlyTheAgentLineAndJep451(jdk, r.stderr);
    }

    @Test
    void attachTwiceShowsTheStatusInsteadOfLoadingASecondCopy() throws Exception {
        Jdk jdk = Jdk.current();
        try (ForkedJvm.Running app = slowTarget(jdk)) {
            app.awaitLine("waiting=1");
            String pid = Long.toString(app.pid());
            ForkedJvm.Result first = command(jdk, "attach", pid, "mode=on");
            ForkedJvm.Result second = command(jdk, "attach", pid, "mode=on");
            assertEquals(0, first.exitCode, first.toString());
            assertEquals(0, second.exitCode, second.toString());
            assertTrue(second.stdout.contains("fastclock is already in JVM " + pid), second.toString());
            assertTrue(second.stdout.contains("a second copy is not loaded"), second.toString());
            assertTrue(second.stdout.contains("active:            true"), second.toString());
            app.process.destroy();
            app.process.waitFor(30, TimeUnit.SECONDS);
            long agentLines = app.stderr().lines().filter(l -> l.startsWith("fastclock:")).count();
            assertEquals(1, agentLines, "one agent, one line\n" + app.stderr());
        }
    }

    @Test
    void modeOffLoadsNothingAndSaysSo() throws Exception {
        Jdk jdk = Jdk.current();
        Path trigger = temp.resolve("go");
        ForkedJvm.Result r;
        ForkedJvm.Result attach;
        try (ForkedJvm.Running app = ForkedJvm.on(jdk).withoutAgent().classPath(ConcurrentLoadIT.classPathWithAsm())
                .main(AttachTargetApp.class, "0", trigger + ":run").start()) {
            app.awaitLine("waiting=1");
            attach = command(jdk, "attach", Long.toString(app.pid()), "mode=off");
            Files.createFile(trigger);
            r = app.finish();
        }
        assertEquals(3, attach.exitCode, attach.toString());
        assertTrue(attach.stdout.contains("inactive: mode=off"), attach.toString());
        assertEquals("none", r.value("backends"), r.toString());
        assertEquals(0, r.exitCode, r.toString());
        assertPhasesRan(r, 1, 0);
    }

    /**
     * host.no-rights: an attach takes its settings from its command and from the fastclock.* properties
     * the JVM was launched with, never from those the running application set (mode=off and a
     * library of its choosing here), which would let it choose what the agent loads.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void settingsTheApplicationSetAtRunTimeAreIgnoredLaunchOnesApply(Jdk jdk) throws Exception {
        ForkedJvm target = ForkedJvm.on(jdk).withoutAgent().jvmArg("-Dfastclock.nanos=system")
                .main(BackgroundSwitchApp.class, "1", "3000", "60", "setSettings"); // alive 3 s past the verdict, for the command to read it
        if (jdk.feature >= 21) {
            target.jvmArg("-XX:+EnableDynamicAgentLoading");
        }
        ForkedJvm.Result r;
        ForkedJvm.Result attach;
        try (ForkedJvm.Running app = target.start()) {
            app.awaitLine("startThread=absent"); // printed after it set the properties
            attach = command(jdk, "attach", Long.toString(app.pid()), "mode=on");
            r = app.finish();
        }
        assertEquals(0, attach.exitCode, attach.toString());
        assertEquals("true", r.value("active"), "a setting the application made at run time was honoured\n" + r + attach);
        assertTrue(r.value("backends").endsWith(",nanos=system"), "the launch's -Dfastclock.nanos=system\n" + r + attach);
        assertFalse(r.stderr.contains("nonexistent") || attach.stdout.contains("nonexistent"), r.toString() + attach);
    }

    @Test
    void aBadSettingIsRejectedBeforeAnythingReachesTheJvm() throws Exception {
        Jdk jdk = Jdk.current();
        try (ForkedJvm.Running app = slowTarget(jdk)) {
            app.awaitLine("waiting=1");
            String pid = Long.toString(app.pid());
            ForkedJvm.Result attach = command(jdk, "attach", pid, "mode=fast");
            assertEquals(2, attach.exitCode, attach.toString());
            assertTrue(attach.stderr.contains("mode=fast") && attach.stderr.contains("accepted values are auto, on, off"),
                    "names the setting, the value and what is accepted\n" + attach);
            assertTrue(attach.stderr.contains("nothing was loaded"), attach.toString());
            ForkedJvm.Result status = command(jdk, "status", pid);
            assertEquals(0, status.exitCode, status.toString());
            assertTrue(status.stdout.contains("fastclock is not loaded"), status.toString());
        }
    }

    @Test
    void badPidsGetClearErrors() throws Exception {
        Jdk jdk = Jdk.current();
        ForkedJvm.Result notAPid = command(jdk, "attach", "12ab");
        assertEquals(2, notAPid.exitCode, notAPid.toString());
        assertTrue(notAPid.stderr.contains("'12ab' is not a process id"), notAPid.toString());

        ForkedJvm.Result gone = command(jdk, "attach", Integer.toString(Integer.MAX_VALUE - 1));
        assertEquals(1, gone.exitCode, gone.toString());
        assertTrue(gone.stderr.contains("no such process: " + (Integer.MAX_VALUE - 1)), gone.toString());

        Process sleep = new ProcessBuilder("sleep", "60").start();
        try {
            ForkedJvm.Result notJvm = command(jdk, "status", Long.toString(sleep.pid()));
            assertEquals(1, notJvm.exitCode, notJvm.toString());
            assertTrue(notJvm.stderr.contains("process " + sleep.pid() + " (sleep) is not a Java virtual machine"),
                    notJvm.toString());
        } finally {
            sleep.destroy();
        }
    }

    @Test
    void aJvmOfAnotherUserNamesTheUserToRunAs() throws Exception {
        Assumptions.assumeTrue("root".equals(System.getProperty("user.name")),
                "[fastclock-it] SKIPPED: starting a JVM as another user needs root");
        Path runuser = Paths.get("/usr/sbin/runuser");
        Assumptions.assumeTrue(Files.isExecutable(runuser), "[fastclock-it] SKIPPED: no runuser here");
        Process other = new ProcessBuilder(runuser.toString(), "-u", "nobody", "--", "sleep", "60").start();
        try {
            // runuser forks the command as the user (or execs it, as some versions do): find that process.
            long pid = -1;
            for (int i = 0; i < 250 && pid < 0; i++) {
                for (long candidate : new long[] {other.pid(),
                        other.toHandle().children().findFirst().map(ProcessHandle::pid).orElse(-1L)}) {
                    Path proc = Paths.get("/proc", Long.toString(candidate));
                    if (candidate > 0 && Files.exists(proc) && "nobody".equals(Files.getOwner(proc).getName())) {
                        pid = candidate;
                    }
                }
                Thread.sleep(20);
            }
            Assumptions.assumeTrue(pid > 0, "[fastclock-it] SKIPPED: runuser did not start a process as nobody");
            ForkedJvm.Result r = command(Jdk.current(), "attach", Long.toString(pid));
            assertEquals(1, r.exitCode, r.toString());
            assertTrue(r.stderr.contains("belongs to user nobody") && r.stderr.contains("sudo -u nobody"), r.toString());
        } finally {
            other.destroy();
        }
    }

    @Test
    void aJvmWithTheAttachMechanismDisabledIsNotSignalled() throws Exception {
        Jdk jdk = Jdk.current();
        Path trigger = temp.resolve("go");
        ForkedJvm.Result r;
        ForkedJvm.Result attach;
        try (ForkedJvm.Running app = ForkedJvm.on(jdk).withoutAgent().jvmArg("-XX:+DisableAttachMechanism")
                .classPath(ConcurrentLoadIT.classPathWithAsm()).main(AttachTargetApp.class, "0", trigger + ":run").start()) {
            app.awaitLine("waiting=1");
            attach = command(jdk, "attach", Long.toString(app.pid()));
            Files.createFile(trigger);
            r = app.finish();
        }
        assertEquals(1, attach.exitCode, attach.toString());
        assertTrue(attach.stderr.contains("does not accept attaching: it was started with -XX:+DisableAttachMechanism"),
                attach.toString());
        assertEquals(0, r.exitCode, r.toString());
        assertFalse(r.stdout.contains("Full thread dump"), "the JVM got SIGQUIT\n" + r);
    }

    /** A jlink image without jdk.attach (and without java.logging, which JNA needs): Byte Buddy's protocol over java.nio. */
    @Test
    void attachAndStatusFromARuntimeWithoutJdkAttach() throws Exception {
        Jdk image = jlinkImage("java.base,java.instrument,java.management,jdk.unsupported");
        checkAttachAndStatusFrom(image, "java.nio UNIX socket");
    }

    /** The same with java.logging in the image: Byte Buddy's emulated attach through fastclock's private JNA. */
    @Test
    void attachAndStatusThroughThePrivateJna() throws Exception {
        Jdk image = jlinkImage("java.base,java.instrument,java.management,jdk.unsupported,java.logging");
        checkAttachAndStatusFrom(image, "fastclock's private JNA");
    }

    private void checkAttachAndStatusFrom(Jdk image, String mechanism) throws Exception {
        Process list = new ProcessBuilder(image.java().toString(), "--list-modules").redirectErrorStream(true).start();
        String modules = new String(list.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        list.waitFor();
        assertFalse(modules.contains("jdk.attach"), modules);
        Jdk jdk = Jdk.current();
        Path trigger = temp.resolve("go");
        ForkedJvm.Result r;
        try (ForkedJvm.Running app = ForkedJvm.on(jdk).withoutAgent().slowClocksource(0)
                .classPath(ConcurrentLoadIT.classPathWithAsm()).main(AttachTargetApp.class, "0", trigger + ":run").start()) {
            app.awaitLine("waiting=1");
            String pid = Long.toString(app.pid());
            ForkedJvm.Result before = command(image, "status", pid, "--json");
            ForkedJvm.Result attach = command(image, "attach", pid, "mode=on");
            ForkedJvm.Result after = command(image, "status", pid, "--json");
            Files.createFile(trigger);
            r = app.finish();
            System.out.println("[AttachIT] from " + image + ": " + attach.stdout.replace('\n', ' '));
            assertEquals(0, before.exitCode, before.toString());
            assertFalse(new ObjectMapper().readTree(before.stdout).get("loaded").asBoolean(), before.stdout);
            assertEquals(0, attach.exitCode, attach.toString());
            assertTrue(attach.stdout.contains(mechanism), attach.toString());
            JsonNode json = new ObjectMapper().readTree(after.stdout);
            assertEquals("agentmain", json.get("started").asText(), after.stdout);
            assertTrue(json.get("active").asBoolean(), after.stdout);
            // nanoTime moves only to a TSC clock (HostMachine): elsewhere it stays on the system clock.
            assertEquals(HostMachine.hasTscClock() ? "tsc" : "system", json.path("nanos").path("backend").asText(), after.stdout);
        }
        assertEquals(0, r.exitCode, r.toString());
        assertPhasesRan(r, 1, 0);
        HostMachine.assertActiveBackends(r.value("backends"), r);
    }

    /**
     * The program saw every trigger and ran its counted windows: a trigger that never came
     * ({@code trigger=timeout}) skips the window, and an empty window reads no slow clock at all.
     */
    static void assertPhasesRan(ForkedJvm.Result r, int phases, int countedWindows) {
        assertFalse(r.values().containsKey("trigger"), "a trigger never came\n" + r);
        assertEquals(phases, r.longValue("phases"), "phases run\n" + r);
        assertEquals(countedWindows, r.longValue("countedWindows"), "counted windows run\n" + r);
    }

    private Jdk jlinkImage(String modules) throws Exception {
        Path jlink = Jdk.current().javaHome.resolve("bin").resolve("jlink");
        Assumptions.assumeTrue(Files.isExecutable(jlink), "[fastclock-it] SKIPPED: no jlink in " + Jdk.current().javaHome);
        Path image = temp.resolve("image");
        Process p = new ProcessBuilder(jlink.toString(), "--add-modules", modules, "--output", image.toString())
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "jlink hung");
        assertEquals(0, p.exitValue(), "jlink failed: " + out);
        return Jdk.at("jlink image of JDK " + Jdk.current().feature + " (" + modules + ")", image, Jdk.current().feature);
    }

    private ForkedJvm.Running slowTarget(Jdk jdk) throws Exception {
        return ForkedJvm.on(jdk).withoutAgent().slowClocksource(0).classPath(ConcurrentLoadIT.classPathWithAsm())
                .main(AttachTargetApp.class, "0", temp.resolve("never") + ":run").start();
    }

    /** java -jar fastclock.jar ARGS, on {@code jdk}. */
    static ForkedJvm.Result command(Jdk jdk, String... args) throws Exception {
        return ForkedJvm.on(jdk).withoutAgent().timeoutSeconds(120).jar(ForkedJvm.agentJar(), args).run();
    }

    /** The target's stderr: the agent's one line, and on JDK 21+ the JVM's four JEP 451 lines; nothing else. */
    static void assertOnlyTheAgentLineAndJep451(Jdk jdk, String stderr) {
        List<String> other = new ArrayList<>();
        int agentLines = 0;
        for (String line : stderr.split("\n")) {
            if (line.startsWith("fastclock:")) {
                agentLines++;
            } else if (!line.isEmpty()) {
                other.add(line);
            }
        }
        assertEquals(1, agentLines, stderr);
        if (jdk.feature >= 21) {
            assertEquals(4, other.size(), "JEP 451's four lines and nothing else\n" + stderr);
            assertTrue(other.get(0).startsWith("WARNING: " + JEP_451), stderr);
            for (String line : other) {
                assertTrue(line.startsWith("WARNING:"), stderr);
            }
        } else {
            assertTrue(other.isEmpty(), "no JVM warning caused by the agent\n" + stderr);
        }
    }
}
