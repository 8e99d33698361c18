package io.fastclock.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fastclock.it.apps.theft.BackgroundRaceApp;
import io.fastclock.it.apps.theft.FakeAgentProperties;
import io.fastclock.it.apps.theft.FakeBackgroundStart;
import io.fastclock.it.apps.theft.FakeJarModuleReader;
import io.fastclock.it.apps.theft.FakeLaunch;
import io.fastclock.it.apps.theft.FakeModuleApp;
import io.fastclock.it.apps.theft.FakePrivateModule;
import io.fastclock.it.apps.theft.ForeignClock;
import io.fastclock.it.apps.theft.ForeignNanosClock;
import io.fastclock.it.apps.theft.JarSwapApp;
import io.fastclock.it.apps.theft.RegistryRaceApp;
import io.fastclock.it.apps.theft.Seed;
import io.fastclock.it.apps.theft.ShadowFastClock;
import io.fastclock.it.apps.theft.ShadowRuntimeApp;
import io.fastclock.it.apps.theft.SplitPackageApp;
import io.fastclock.it.apps.theft.StandInMillisClock;
import io.fastclock.it.apps.theft.StandInNanosClock;
import java.io.File;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The application plays the thief: it plants classes named like the agent's where the agent would
 * use them, and must end up neither holding the agent's Instrumentation nor reading a clock value
 * that neither the system nor fastclock gave. Each fake keeps an Instrumentation it is handed in the
 * system properties (apps.theft.Loot), and the app prints stolen=0|1.
 *
 * <ol>
 *   <li>start=background: main defines a fake PrivateModule$JarModuleReader (serving a fake Launch),
 *       PrivateModule or BackgroundStart next to AgentEntry while the agent starts;</li>
 *   <li>a module layer of the application's own with a module io.fastclock.agent whose Launch
 *       provides Function, then the operator's detach (and attach, then detach);</li>
 *   <li>io/fastclock/entry/PrivateModule ahead of fastclock.jar on the class path; or defined next
 *       to AgentEntry (fastclock.jar on the class path) before the operator attaches;</li>
 *   <li>a shadow io.fastclock.runtime.FastClock (nanoTime 42, currentTimeMillis 0) in the
 *       application's loader before fastclock activates (start=background, attach), or defined next
 *       to a class-path io.fastclock.runtime.Seed after it did;</li>
 *   <li>ClockRegistry.install with the application's own backends, racing start=background;</li>
 *   <li>fastclock.jar swapped at main's first instruction for a copy whose entry classes are fakes
 *       (an application that can write the jar's directory): fastclock read its jar once, before
 *       premain returned, and defines nothing from the copy.</li>
 * </ol>
 */
class TheftIT {
    static final String BACKGROUND = "mode=on,start=background";
    static final String LAUNCH = "io/fastclock/agent/Launch";
    static final String PRIVATE_MODULE = "io/fastclock/entry/PrivateModule";
    static final String JAR_MODULE_READER = PRIVATE_MODULE + "$JarModuleReader";
    /** Handed the Instrumentation by the start thread, once the entry's helpers are defined. */
    static final String BACKGROUND_START = "io/fastclock/entry/BackgroundStart";
    static final String FAST_CLOCK = "io/fastclock/runtime/FastClock";
    /** Handed jdk.internal.vm by the entry, to publish a fast host's verdict in the agent properties. */
    static final String AGENT_PROPERTIES = "io/fastclock/entry/state/JvmAgentProperties";
    /** A clock read outside the JDK's by more than this did not come from the system or fastclock. */
    static final long MAX_NANOS_OUTSIDE = 10_000_000L;
    static final long MAX_MILLIS_OUTSIDE = 20;

    @TempDir
    Path temp;

    /** The fakes' class files under their planted names; never on a class path. */
    Path fakes;

    @BeforeEach
    void writeFakes() throws Exception {
        fakes = RenamedClasses.write(Files.createDirectory(temp.resolve("fakes")), Map.of(
                LAUNCH, RenamedClasses.renamed(FakeLaunch.class, LAUNCH),
                JAR_MODULE_READER, RenamedClasses.renamed(FakeJarModuleReader.class, JAR_MODULE_READER),
                PRIVATE_MODULE, RenamedClasses.renamed(FakePrivateModule.class, PRIVATE_MODULE),
                BACKGROUND_START, RenamedClasses.renamed(FakeBackgroundStart.class, BACKGROUND_START),
                FAST_CLOCK, RenamedClasses.renamed(ShadowFastClock.class, FAST_CLOCK),
                RenamedClasses.internalName(ForeignClock.class), RenamedClasses.renamed(ForeignClock.class,
                        Map.of(RenamedClasses.internalName(StandInMillisClock.class), "io/fastclock/runtime/MillisClock")),
                RenamedClasses.internalName(ForeignNanosClock.class), RenamedClasses.renamed(ForeignNanosClock.class,
                        Map.of(RenamedClasses.internalName(StandInNanosClock.class), "io/fastclock/runtime/NanosClock"))));
    }

    static List<Jdk> jdks() {
        return Jdk.all();
    }

    static List<Arguments> backgroundRaces() {
        List<Arguments> cases = new ArrayList<>();
        for (Jdk jdk : Jdk.all()) {
            cases.add(Arguments.of(jdk, JAR_MODULE_READER));
            cases.add(Arguments.of(jdk, PRIVATE_MODULE));
            cases.add(Arguments.of(jdk, BACKGROUND_START));
        }
        return cases;
    }

    // ---- 1. start=background ---------------------------------------------------------------------

    @ParameterizedTest(name = "{0}, fake {1}")
    @MethodSource("backgroundRaces")
    void aFakeDefinedWhileTheAgentStartsInTheBackgroundGetsNoInstrumentation(Jdk jdk, String fake) throws Exception {
        ForkedJvm.Result r = ForkedJvm.on(jdk).agentArgs(BACKGROUND)
                .main(BackgroundRaceApp.class, fakes.toString(), fake).run();
        report("background race, fake " + fake, jdk, r);
        assertNoTheft(r);
        assertOneLineVerdicts(r.stderr, r.toString());
    }

    // ---- 2. a module named io.fastclock.agent of the application's ---------------------------------

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void detachReachesTheAgentNotTheApplicationsModuleOfTheSameName(Jdk jdk) throws Exception {
        Path trigger = temp.resolve("go");
        ForkedJvm.Result r;
        ForkedJvm.Result detach;
        try (ForkedJvm.Running app = attachable(ForkedJvm.on(jdk).agentArgs("mode=on"), jdk)
                .main(FakeModuleApp.class, fakes.toString(), trigger.toString()).start()) {
            app.awaitLine("waiting=1");
            detach = AttachIT.command(jdk, "detach", Long.toString(app.pid()));
            Files.createFile(trigger);
            r = app.finish();
        }
        report("fake module, detach", jdk, r, detach);
        String context = r + "\ndetach:\n" + detach;
        assertNoTheft(r, context);
        assertEquals(0, detach.exitCode, "the agent should have detached\n" + context);
        assertTrue(r.stderr.contains("detached"), "the agent should say it detached\n" + context);
        assertOneLineVerdicts(r.stderr, context);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void attachAndDetachIgnoreTheApplicationsModuleOfTheSameName(Jdk jdk) throws Exception {
        Path trigger = temp.resolve("go");
        ForkedJvm.Result r;
        ForkedJvm.Result attach;
        ForkedJvm.Result detach;
        try (ForkedJvm.Running app = attachable(ForkedJvm.on(jdk).withoutAgent(), jdk)
                .main(FakeModuleApp.class, fakes.toString(), trigger.toString()).start()) {
            app.awaitLine("waiting=1");
            String pid = Long.toString(app.pid());
            attach = attach(jdk, pid);
            detach = AttachIT.command(jdk, "detach", pid);
            Files.createFile(trigger);
            r = app.finish();
        }
        report("fake module, attach and detach", jdk, r, attach, detach);
        String context = r + "\nattach:\n" + attach + "\ndetach:\n" + detach;
        assertNoTheft(r, context);
        assertFalse(attach.stdout.contains("already") || r.stderr.contains("already installed"),
                "the application's module was taken for the agent\n" + context);
        assertEquals(0, attach.exitCode, "the agent should be active\n" + context);
        assertEquals(0, detach.exitCode, "the agent should have detached\n" + context);
        assertTrue(r.stderr.contains("detached"), "the agent should say it detached\n" + context);
        assertOneLineVerdicts(r.stderr, context);
    }

    // ---- 3. io.fastclock.entry.PrivateModule of the application's ----------------------------------

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void aPrivateModuleAheadOfTheAgentOnTheClassPathGetsNoInstrumentation(Jdk jdk) throws Exception {
        Path attacker = RenamedClasses.jar(temp.resolve("attacker.jar"), Map.of(PRIVATE_MODULE, fake(PRIVATE_MODULE)));
        ForkedJvm.Result r = ForkedJvm.on(jdk).agentArgs("mode=on")
                .classPath(attacker + File.pathSeparator + ForkedJvm.testClasses())
                .main(SplitPackageApp.class, "javaagent").run();
        report("PrivateModule on the class path", jdk, r);
        assertNoTheft(r);
        assertOneLineVerdicts(r.stderr, r.toString());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void aPrivateModuleDefinedNextToTheEntryBeforeAnAttachGetsNoInstrumentation(Jdk jdk) throws Exception {
        Path trigger = temp.resolve("go");
        ForkedJvm.Result r;
        String attach;
        try (ForkedJvm.Running app = attachable(ForkedJvm.on(jdk).withoutAgent(), jdk)
                .classPath(ForkedJvm.testClasses() + File.pathSeparator + ForkedJvm.agentJar())
                .main(SplitPackageApp.class, "attach", fakes.toString(), trigger.toString()).start()) {
            app.awaitLine("waiting=1");
            attach = attachUntilTheAgentSpeaks(jdk, app);
            Files.createFile(trigger);
            r = app.finish();
        }
        report("PrivateModule defined before attach", jdk, r);
        String context = r + "\nattach:\n" + attach;
        assertNoTheft(r, context);
        assertOneLineVerdicts(r.stderr, context);
        assertNoStackTrace(attach, context);
    }

    /**
     * Where the entry answered alone (a fast machine, plain settings), the application can define a
     * PrivateModule of its own next to the entry before anyone loads the agent again. A raw loadAgent (the
     * commands would only show the status) defines its helpers in a class loader of its own, so the
     * application's class is never called: the load starts fastclock, and the fake gets nothing.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void aPrivateModuleDefinedAfterTheEntryAnsweredGetsNoInstrumentation(Jdk jdk) throws Exception {
        Path trigger = temp.resolve("go");
        ForkedJvm.Result r;
        try (ForkedJvm.Running app = attachable(ForkedJvm.on(jdk).agentArgs(Fixtures.fastMachine()), jdk)
                .main(SplitPackageApp.class, "attach", fakes.toString(), trigger.toString()).start()) {
            app.awaitLine("waiting=1");
            com.sun.tools.attach.VirtualMachine vm = com.sun.tools.attach.VirtualMachine.attach(Long.toString(app.pid()));
            try {
                vm.loadAgent(ForkedJvm.agentJar().toString(), "mode=on");
            } finally {
                vm.detach();
            }
            Files.createFile(trigger);
            r = app.finish();
        }
        report("PrivateModule defined after the entry answered", jdk, r);
        assertNoTheft(r);
        assertTrue(r.stderr.startsWith("fastclock: inactive: system clocks are fast here"), "the entry answered first\n" + r);
        assertTrue(r.agentLines().size() == 2 && r.agentLines().get(1).startsWith("fastclock: active:"),
                "the second load is fastclock's own, the application's PrivateModule never called\n" + r);
        assertNoStackTrace(r.stderr, r.toString());
    }

    // ---- 4. a class named like the runtime in the application's loader -----------------------------

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void aShadowRuntimeLoadedBeforeTheBackgroundStartNeverServesItsClocks(Jdk jdk) throws Exception {
        ForkedJvm.Result r = ForkedJvm.on(jdk).agentArgs(BACKGROUND).classPath(classPathWith(FAST_CLOCK, fake(FAST_CLOCK)))
                .main(ShadowRuntimeApp.class, "background").run();
        report("shadow runtime, background", jdk, r);
        assertTheShadowServedNothing(r, r.toString());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void aShadowRuntimeLoadedBeforeAnAttachNeverServesItsClocks(Jdk jdk) throws Exception {
        Path trigger = temp.resolve("go");
        ForkedJvm.Result r;
        ForkedJvm.Result attach;
        try (ForkedJvm.Running app = attachable(ForkedJvm.on(jdk).withoutAgent(), jdk)
                .classPath(classPathWith(FAST_CLOCK, fake(FAST_CLOCK)))
                .main(ShadowRuntimeApp.class, "attach", trigger.toString()).start()) {
            app.awaitLine("waiting=1");
            attach = attach(jdk, Long.toString(app.pid()));
            Files.createFile(trigger);
            r = app.finish();
        }
        report("shadow runtime, attach", jdk, r, attach);
        assertTheShadowServedNothing(r, r + "\nattach:\n" + attach);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void aShadowRuntimeDefinedAfterTheStartNextToAClassPathSeedNeverServesItsClocks(Jdk jdk) throws Exception {
        String seed = "io/fastclock/runtime/Seed";
        ForkedJvm.Result r = ForkedJvm.on(jdk).agentArgs("mode=on")
                .classPath(classPathWith(seed, RenamedClasses.renamed(Seed.class, seed)))
                .main(ShadowRuntimeApp.class, "seed", fakes.toString()).run();
        report("shadow runtime, seed", jdk, r);
        assertTheShadowServedNothing(r, r.toString());
    }

    /**
     * Issue 35's first door, after a detach: the transformer that refuses every definition of a class
     * named like the runtime stays registered when the operator detaches fastclock.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void aShadowRuntimeDefinedAfterADetachIsRefusedToo(Jdk jdk) throws Exception {
        String seed = "io/fastclock/runtime/Seed";
        Path trigger = temp.resolve("go");
        ForkedJvm.Result r;
        ForkedJvm.Result detach;
        try (ForkedJvm.Running app = attachable(ForkedJvm.on(jdk), jdk).agentArgs("mode=on")
                .classPath(classPathWith(seed, RenamedClasses.renamed(Seed.class, seed)))
                .main(ShadowRuntimeApp.class, "detached", fakes.toString(), trigger.toString()).start()) {
            app.awaitLine("waiting=1");
            detach = AttachIT.command(jdk, "detach", Long.toString(app.pid()));
            Files.createFile(trigger);
            r = app.finish();
        }
        report("shadow runtime after a detach", jdk, r, detach);
        String context = r + "\ndetach:\n" + detach;
        assertEquals(0, detach.exitCode, context);
        assertEquals(0, r.exitCode, context);
        assertEquals("1", r.value("done"), context);
        assertTrue(r.stderr.contains("detached"), "the agent should say it detached\n" + context);
        assertTrue(r.value("defined").startsWith("java.lang.ClassFormatError"), "a class named like the runtime was"
                + " defined after the detach\n" + context);
        assertRealClocks(r, context);
    }

    /**
     * The agent went active beside the shadow, said so where the application's loader holds it, and the
     * new class read real clocks.
     */
    static void assertTheShadowServedNothing(ForkedJvm.Result r, String context) {
        assertEquals(0, r.exitCode, context);
        assertEquals("1", r.value("done"), context);
        assertTrue(r.stderr.contains("fastclock: active"), "the agent should be active beside the shadow\n" + context);
        assertRealClocks(r, context);
        assertOneLineVerdicts(r.stderr, context);
        if (r.value("shadowInAppLoader").equals("true")) {
            assertTrue(r.agentLines().stream().anyMatch(l -> l.contains("io.fastclock.runtime")),
                    "the agent should name the loader that holds a class named like its runtime\n" + context);
        }
    }

    // ---- 5. ClockRegistry.install racing start=background -------------------------------------------

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void anInstallRacingTheBackgroundStartLeavesOneLineAndRealClocks(Jdk jdk) throws Exception {
        ForkedJvm.Result r = ForkedJvm.on(jdk).agentArgs(BACKGROUND).main(RegistryRaceApp.class, fakes.toString()).run();
        report("ClockRegistry race", jdk, r);
        assertEquals(0, r.exitCode, r.toString());
        assertEquals("1", r.value("done"), r.toString());
        // Found, or the race tests nothing (the class renamed, the app spinning for nothing).
        assertEquals("true", r.value("registryFound"), "the app never saw the registry\n" + r);
        assertTrue(r.value("installAccepted").startsWith("refused:"), "the application reached install\n" + r);
        assertFalse(r.stderr.contains("NullPointerException"), r.toString());
        assertEquals(1, r.agentLines().size(), "one verdict line\n" + r);
        assertRealClocks(r, r.toString());
        assertOneLineVerdicts(r.stderr, r.toString());
    }

    // ---- helpers ------------------------------------------------------------------------------------

    private byte[] fake(String internalName) throws Exception {
        return Files.readAllBytes(fakes.resolve(internalName + ".class"));
    }

    /** The test classes, then a jar holding this one class. */
    private String classPathWith(String internalName, byte[] classFile) throws Exception {
        Path jar = RenamedClasses.jar(temp.resolve("planted.jar"), Map.of(internalName, classFile));
        return ForkedJvm.testClasses() + File.pathSeparator + jar;
    }

    /** A target the commands attach to (JDK 21+ would warn on stderr otherwise). */
    static ForkedJvm attachable(ForkedJvm jvm, Jdk jdk) {
        return jdk.feature >= 21 ? jvm.jvmArg("-XX:+EnableDynamicAgentLoading") : jvm;
    }

    static ForkedJvm.Result attach(Jdk jdk, String pid) throws Exception {
        return AttachIT.command(jdk, "attach", pid, "mode=on", "--timeout", "30");
    }

    /**
     * Runs {@code attach PID mode=on} until the agent has printed a line on the target's stderr (a verdict
     * or a refusal) or the command has ended: the command waits for a published verdict, which a refusal
     * may not publish. Returns what the command printed.
     */
    static String attachUntilTheAgentSpeaks(Jdk jdk, ForkedJvm.Running app) throws Exception {
        try (ForkedJvm.Running attach = ForkedJvm.on(jdk).withoutAgent().timeoutSeconds(60)
                .jar(ForkedJvm.agentJar(), "attach", Long.toString(app.pid()), "mode=on", "--timeout", "30").start()) {
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (attach.process.isAlive() && !app.stderr().lines().anyMatch(l -> l.startsWith("fastclock:"))
                    && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            String state = attach.process.isAlive() ? "(still waiting for a verdict)" : "exit " + attach.process.exitValue();
            return state + "\n" + attach.stdout() + attach.stderr();
        }
    }

    static final String SWAP_SLOW = "slow clocks, defaults";
    static final String SWAP_FAST = "fast host, defaults";
    static final String SWAP_FAST_WAIT = "fast host, start=wait";

    static List<Arguments> jarSwaps() {
        List<Arguments> out = new ArrayList<>();
        for (Jdk jdk : Jdk.all()) {
            for (String how : new String[] {SWAP_SLOW, SWAP_FAST, SWAP_FAST_WAIT}) {
                out.add(Arguments.of(jdk, how));
            }
        }
        return out;
    }

    /**
     * Door 3 of issue 35: on 26aadc6 the entry opened its jar by path again after main began, and a
     * swapped BackgroundStart was handed the Instrumentation (defaults), a swapped JvmAgentProperties
     * given jdk.internal.vm (a fast host at start=wait). JDK 25 runs hardened.
     */
    @ParameterizedTest(name = "{0}, {1}")
    @MethodSource("jarSwaps")
    void aJarSwappedAtMainsFirstInstructionIsNeverReadAgain(Jdk jdk, String how) throws Exception {
        Path lib = Files.createDirectory(temp.resolve("lib"));
        Path jar = Files.copy(ForkedJvm.agentJar(), lib.resolve("fastclock.jar"));
        Path swap = withFakes(ForkedJvm.agentJar(), lib.resolve("fastclock.jar.new"), Map.of(
                BACKGROUND_START, RenamedClasses.renamed(FakeBackgroundStart.class, BACKGROUND_START),
                PRIVATE_MODULE, RenamedClasses.renamed(FakePrivateModule.class, PRIVATE_MODULE),
                LAUNCH, RenamedClasses.renamed(FakeLaunch.class, LAUNCH),
                AGENT_PROPERTIES, RenamedClasses.renamed(FakeAgentProperties.class, AGENT_PROPERTIES)));
        ForkedJvm jvm = ForkedJvm.on(jdk).withoutAgent().agentGivenByTheTest().jvmArg("-javaagent:" + jar)
                .jvmArg(jdk.hardenedFlags().toArray(new String[0]));
        if (how.equals(SWAP_SLOW)) {
            jvm.slowClocksource(0);
        } else if (how.equals(SWAP_FAST_WAIT)) {
            jvm.startWait("the fast host's verdict published from premain, where 26aadc6 read its reader again");
        }
        ForkedJvm.Result r = jvm.main(JarSwapApp.class, jar.toString(), swap.toString()).run();
        report("jar swapped (" + how + ")", jdk, r);
        String context = how + "\n" + r;
        assertEquals(0, r.exitCode, context);
        assertEquals("1", r.value("swappedAtMain"), context);
        assertEquals("1", r.value("done"), context);
        assertNoTheft(r, context);
        assertEquals("null", r.value("swapped"), "a class of the swapped jar was defined\n" + context);
        String start = r.startLine();
        if (how.equals(SWAP_SLOW) && HostMachine.hasTscClock()) {
            assertTrue(start.startsWith("fastclock: active:"), context);
        } else if (!how.equals(SWAP_SLOW)) {
            assertTrue(start.startsWith("fastclock: inactive: system clocks are fast here"), context);
        }
        assertOneLineVerdicts(r.stderr, context);
    }

    /** A copy of {@code jar} whose class entries named in {@code fakes} (by internal name) hold the fakes' bytes. */
    static Path withFakes(Path jar, Path out, Map<String, byte[]> fakes) throws Exception {
        int replaced = 0;
        try (ZipFile in = new ZipFile(jar.toFile()); OutputStream file = Files.newOutputStream(out);
                ZipOutputStream zip = new ZipOutputStream(file)) {
            for (ZipEntry e : java.util.Collections.list(in.entries())) {
                String className = classNameOf(e.getName());
                byte[] fake = className == null ? null : fakes.get(className);
                zip.putNextEntry(new ZipEntry(e.getName()));
                if (fake != null) {
                    zip.write(fake);
                    replaced++;
                } else {
                    try (InputStream data = in.getInputStream(e)) {
                        data.transferTo(zip);
                    }
                }
                zip.closeEntry();
            }
        }
        assertEquals(fakes.size(), replaced, "the jar's entries for " + fakes.keySet());
        return out;
    }

    /** The class an entry holds, by internal name, wherever the jar keeps it; null for other entries. */
    static String classNameOf(String entry) {
        String name = entry.endsWith(".class") ? entry.substring(0, entry.length() - 6)
                : entry.endsWith(".classdata") ? entry.substring(0, entry.length() - 10) : null;
        if (name == null) {
            return null;
        }
        if (name.startsWith("META-INF/fastclock/entry/")) {
            return "io/fastclock/entry/" + name.substring("META-INF/fastclock/entry/".length());
        }
        if (name.startsWith("META-INF/fastclock/entry-state/")) {
            return "io/fastclock/entry/state/" + name.substring("META-INF/fastclock/entry-state/".length());
        }
        int io = name.indexOf("io/fastclock/");
        return io < 0 ? null : name.substring(io);
    }

    static void assertNoTheft(ForkedJvm.Result r) {
        assertNoTheft(r, r.toString());
    }

    static void assertNoTheft(ForkedJvm.Result r, String context) {
        assertEquals("0", r.value("stolen"), "the application holds the agent's Instrumentation\n" + context);
        assertEquals(0, r.exitCode, context);
        assertEquals("1", r.value("done"), context);
    }

    /** The new class's reads fell within the JDK's, give or take a backend's error, not 42 ns or 0 ms. */
    static void assertRealClocks(ForkedJvm.Result r, String context) {
        assertTrue(r.longValue("nanoTimeOutsideReferenceNanos") < MAX_NANOS_OUTSIDE,
                "nanoTime is not the system's or fastclock's\n" + context);
        assertTrue(r.longValue("millisOutsideReferenceMs") < MAX_MILLIS_OUTSIDE,
                "currentTimeMillis is not the system's or fastclock's\n" + context);
    }

    /** The agent said what it did in fastclock: lines (at least one), never with a stack trace. */
    static void assertOneLineVerdicts(String stderr, String context) {
        assertTrue(stderr.lines().anyMatch(l -> l.startsWith("fastclock:")), "no verdict line from the agent\n" + context);
        assertNoStackTrace(stderr, context);
    }

    static void assertNoStackTrace(String text, String context) {
        assertFalse(text.lines().anyMatch(l -> l.startsWith("\tat ") || l.startsWith("Exception in thread")
                || l.startsWith("Caused by:")), "a stack trace\n" + context);
    }

    private static void report(String what, Jdk jdk, ForkedJvm.Result r, ForkedJvm.Result... commands) {
        StringBuilder sb = new StringBuilder("[TheftIT] " + jdk + ", " + what + ": " + r.stdout.trim().replace('\n', ' ')
                + " | " + String.join(" / ", r.agentLines()));
        for (ForkedJvm.Result c : commands) {
            int verb = c.command.indexOf(ForkedJvm.agentJar().toString()) + 1;
            sb.append(" | ").append(c.command.get(verb)).append(" exit ").append(c.exitCode).append(": ")
                    .append(String.join(" ", c.stdout.trim().lines().limit(2).toArray(String[]::new)));
        }
        System.out.println(sb);
    }
}
