package io.fastclock.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.jna.Native;
import io.fastclock.it.apps.HelloApp;
import io.fastclock.it.apps.OwnJnaApp;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Without libfastclock, currentTimeMillis can still go through CLOCK_REALTIME_COARSE via the JNA
 * nested in fastclock.jar, loaded privately: an application's own JNA is neither replaced nor
 * disturbed.
 *
 * <p>Proves, in docs/CONTRACT.md: activation.auto, host.quiet.
 */
class JnaFallbackIT {
    private static final String NO_JNI = "mode=on,millis=jna-coarse,library=/nonexistent.so";

    static List<Jdk> jdks() {
        return Jdk.all();
    }

    /** No flag: the JVM prints nothing of its own about fastclock's JNA on any JDK (JDK 24+'s native access included). */
    private static ForkedJvm quiet(Jdk jdk) {
        return ForkedJvm.on(jdk);
    }

    /** The application's own JNA (on its class path) is the application's: on JDK 24+ it needs the flag to be quiet. */
    private static ForkedJvm ownJna(Jdk jdk) {
        ForkedJvm jvm = ForkedJvm.on(jdk);
        return jdk.feature >= 24 ? jvm.jvmArg("--enable-native-access=ALL-UNNAMED") : jvm;
    }

    private static void assertOnlyAgentLines(ForkedJvm.Result r) {
        for (String line : r.stderr.split("\n")) {
            assertTrue(line.isEmpty() || line.startsWith("fastclock: "), "stderr line not from the agent: " + line + "\n" + r);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void withoutTheJniLibraryMillisGoesThroughJna(Jdk jdk) throws Exception {
        ForkedJvm.Result r = quiet(jdk).agentArgs(NO_JNI).main(HelloApp.class).run();
        assertEquals(0, r.exitCode, r.toString());
        assertEquals("ok", r.value("hello"), r.toString());
        assertEquals("true", r.value("active"), r.toString());
        assertEquals("millis=jna-coarse,nanos=system", r.value("backends"), r.toString());
        assertEquals("true", r.value("millisPlausible"), r.toString());
        assertTrue(r.stderr.contains("currentTimeMillis -> jna-coarse"), r.toString());
        assertOnlyAgentLines(r);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void anApplicationsOwnJnaOfAnotherVersionStillWorks(Jdk jdk) throws Exception {
        Path appJna = Paths.get(Native.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        assertTrue(appJna.getFileName().toString().contains("5.13.0"), appJna.toString());
        ForkedJvm.Result r = ownJna(jdk).agentArgs(NO_JNI)
                .classPath(ForkedJvm.testClasses() + File.pathSeparator + appJna)
                .main(OwnJnaApp.class).run();
        assertEquals(0, r.exitCode, r.toString());
        assertEquals(r.value("javaPid"), r.value("ownJnaPid"), r.toString());
        assertTrue(r.value("ownJnaLocation").contains("jna-5.13.0.jar"), r.toString());
        assertEquals("true", r.value("ownJnaFromAppLoader"), r.toString());
        assertEquals("millis=jna-coarse,nanos=system", r.value("backends"), r.toString());
        assertEquals("true", r.value("millisInWindow"), r.toString());
        assertOnlyAgentLines(r);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void theAgentPutsNoJnaOnTheApplicationsClassPath(Jdk jdk) throws Exception {
        ForkedJvm.Result r = quiet(jdk).agentArgs(NO_JNI).main(JnaVisibility.class).run();
        assertEquals(0, r.exitCode, r.toString());
        assertEquals("millis=jna-coarse,nanos=system", r.value("backends"), r.toString());
        assertEquals("false", r.value("jnaVisible"), r.toString());
        assertEquals("false", r.value("adapterVisible"), r.toString());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void whenTheJniLibraryLoadsJnaIsNotTouched(Jdk jdk) throws Exception {
        ForkedJvm.Result r = ForkedJvm.on(jdk).agentArgs("mode=on").jvmArg("-verbose:class").main(HelloApp.class).run();
        assertEquals(0, r.exitCode, r.toString());
        assertTrue(r.stdout.contains("io.fastclock.probe.MachineProbe"), "no class loading logged\n" + r);
        assertFalse(r.stdout.contains("JnaLoader") || r.stdout.contains("com.sun.jna"), r.toString());
    }

    /**
     * auto without libfastclock on a fast clocksource: JNA cannot win, and on JDK 24+ loading it would
     * print a warning, so it is not even loaded there; the host's stderr holds only the agent's line.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void autoWithoutTheJniLibraryOnAFastClockStaysQuiet(Jdk jdk) throws Exception {
        // A fast machine fed to the agent (Fixtures.fastMachine): on a host with a known-slow clocksource
        // auto would rightly load JNA (and on JDK 24+ the JVM would warn).
        ForkedJvm.Result r = ForkedJvm.on(jdk).agentArgs("library=/nonexistent.so," + Fixtures.fastMachine())
                .main(HelloApp.class).run();
        assertEquals(0, r.exitCode, r.toString());
        assertTrue(ForkedJvm.onSystemBackends(r.value("backends")), r.toString());
        assertOnlyAgentLines(r);
    }

    /** Under the slow-clocksource simulator (HPET-like), auto picks jna-coarse where JNI is missing. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void autoPicksJnaWhereItBeatsASlowSystemClock(Jdk jdk) throws Exception {
        ForkedJvm.Result r = quiet(jdk).agentArgs("library=/nonexistent.so").slowClocksource(500)
                .main(HelloApp.class).run();
        assertEquals(0, r.exitCode, r.toString());
        assertEquals("millis=jna-coarse,nanos=system", r.value("backends"), r.toString());
        assertEquals("true", r.value("millisPlausible"), r.toString());
    }

    /**
     * A currentTimeMillis dear, but not so dear that JNA is sure to beat it (the simulator without a
     * spin: about 240 ns here, where JNA timed 293 ns at start and lost): auto does not load JNA at all,
     * since a JNA loaded stays loaded whatever the verdict. No class of JNA's is loaded (the JVM's own
     * log), the verdict leaves millis on the system clock and says why.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void autoLeavesJnaUnloadedWhereItIsNotSureToWin(Jdk jdk, @TempDir Path dir) throws Exception {
        Path classes = dir.resolve("classes.log");
        ForkedJvm.Result r = quiet(jdk).agentArgs("library=/nonexistent.so").slowClocksource(0)
                .jvmArg("-Xlog:class+load:file=" + classes).main(HelloApp.class).run();
        assertEquals(0, r.exitCode, r.toString());
        Matcher millis = Pattern.compile("System\\.currentTimeMillis (?:costs )?(\\d+) ns").matcher(r.stderr);
        assertTrue(millis.find(), r.toString());
        long ns = Long.parseLong(millis.group(1));
        Assumptions.assumeTrue(ns < 420, "the simulated clock costs " + ns + " ns on this machine: JNA is worth loading here");
        assertFalse(Files.readString(classes).contains(" com.sun.jna."), "JNA loaded: " + r);
        assertTrue(ForkedJvm.onSystemBackends(r.value("backends")), r.toString());
        assertTrue(r.stderr.contains("JNA was not looked for: currentTimeMillis costs at most " + ns + " ns"), r.toString());
    }

    /**
     * JDK 24+ flags System.load from a module without native access. fastclock's JNA is a named module
     * of its own with native access, so the host needs no flag and the application's class path gets
     * none (it used to print the JVM's four WARNING lines unless --enable-native-access=ALL-UNNAMED).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void jnaLoadsWithoutAWarningAndWithoutNativeAccessForTheClassPath(Jdk jdk) throws Exception {
        ForkedJvm.Result r = ForkedJvm.on(jdk).agentArgs(NO_JNI).main(HelloApp.class).run();
        assertEquals("millis=jna-coarse,nanos=system", r.value("backends"), r.toString());
        assertOnlyAgentLines(r);
        assertEquals(false, r.stderr.contains("WARNING"), r.toString());
    }

    /** Asks the application's class loader for JNA and for the adapter. */
    public static final class JnaVisibility {
        public static void main(String[] args) {
            io.fastclock.it.apps.AgentVerdict.await();
            System.out.println("backends=" + io.fastclock.it.apps.ReferenceClocks.backends().replace(' ', ','));
            System.out.println("jnaVisible=" + visible("com.sun.jna.Native"));
            System.out.println("adapterVisible=" + visible("io.fastclock.jna.JnaCoarseMillis"));
        }

        private static boolean visible(String name) {
            try {
                Class.forName(name, false, ClassLoader.getSystemClassLoader());
                return true;
            } catch (ClassNotFoundException e) {
                return false;
            }
        }
    }
}
