package io.fastclock.it;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fastclock.it.apps.BackgroundSwitchApp;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * "Could not measure" is not "slower" (activation.busy in docs/CONTRACT.md). The cross-CPU TSC check
 * is cut short as busy CPUs cut it short: the fault library's first worker cannot run within the
 * check's time (libfastclock-stallcpu.so; FC_FAULT_STALL_RUNS=N limits that to the process's first N
 * checks). The agent must then say so, leave the application on the system clocks, measure again
 * later, and decide once it can; where the CPUs stay busy, the last measurement's decision stands and
 * says so. The app (BackgroundSwitchApp) reads the clocks from main's first line through the switch.
 * One JDK: the takeover itself is BackgroundStartIT's, on every JDK.
 */
class BusyCpusIT {
    static final String UNDECIDED = "fastclock: undecided: the cross-CPU TSC check could not finish (the CPUs were busy)";

    static List<Jdk> jdks() {
        return Jdk.one();
    }

    private static ForkedJvm stalledChecks(Jdk jdk) {
        HostMachine.assumeTscCpu("a TSC check cut short by busy CPUs");
        // The undecided line is start=wait's (activation.busy): with start=background only the start line tells.
        return ForkedJvm.on(jdk).startWait("the undecided line before main is start=wait's")
                .agentArgs("mode=on,library=" + ForkedJvm.faultLibrary("stallcpu") + "," + Fixtures.settings(Fixtures.machine("tsc")));
    }

    private static String startLine(ForkedJvm.Result r) {
        List<String> starts = r.agentLines().stream()
                .filter(l -> l.startsWith("fastclock: active:") || l.startsWith("fastclock: inactive:"))
                .collect(Collectors.toList());
        assertEquals(1, starts.size(), "one start line\n" + r);
        return starts.get(0);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void aCheckCutShortByBusyCpusIsMeasuredAgainAndTheTscClockTakesOver(Jdk jdk) throws Exception {
        ForkedJvm.Result r = stalledChecks(jdk).env("FC_FAULT_STALL_RUNS", "1")
                .main(BackgroundSwitchApp.class, "2", "500", "30").run();
        System.out.println("[BusyCpusIT] " + jdk + " busy once: " + String.join(" / ", r.agentLines()));
        assertEquals(0, r.exitCode, r.toString());
        String start = startLine(r);
        assertAll(jdk.toString(),
                () -> assertTrue(r.agentLines().get(0).startsWith(UNDECIDED), "the first line says why it waits\n" + r),
                () -> assertEquals("null", r.value("activeAtMain"), "premain gave a verdict it could not measure\n" + r),
                () -> assertTrue(start.startsWith("fastclock: active:") && start.contains("nanoTime -> tsc")
                        && start.endsWith("; decided on measuring again (1 time, the CPUs were busy before)"), start),
                () -> assertEquals("true", r.value("active"), r.toString()),
                () -> assertTrue(r.value("backends").contains("nanos=tsc"), r.toString()),
                // The contract through the switch from the system clock to the TSC clock.
                () -> assertEquals(0, r.longValue("nanos.backwardsSingleThread"), r.toString()),
                () -> assertEquals(0, r.longValue("nanos.backwardsAcrossThreads"), r.toString()),
                () -> assertTrue(r.longValue("nanos.worstOutsideReferenceNs") <= 100_000, r.toString()),
                () -> assertTrue(r.longValue("millis.worstAheadMs") <= 1, r.toString()),
                () -> assertEquals(0, r.longValue("instant.outside"), r.toString()));
    }

    /**
     * A java.io.tmpdir others can write (0777, no sticky bit), refused for the native code the first
     * measurement extracts (JNA's, named here: the fault library is given as the JNI library, which is not
     * extracted): the later measurement finds it loaded and extracts nothing, and the line saying where it
     * went instead must still come, once (found lost beside two busy loops, HostileEnvironmentIT on JDK 25).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void aMeasurementRepeatedStillSaysOnceWhereTheNativeCodeWasExtracted(Jdk jdk, @TempDir Path temp) throws Exception {
        Path open = Files.createDirectory(temp.resolve("open"));
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
        ForkedJvm.Result r = stalledChecks(jdk).agentArgs("mode=on,millis=jna-coarse,library=" + ForkedJvm.faultLibrary("stallcpu")
                + "," + Fixtures.settings(Fixtures.machine("tsc"))).env("FC_FAULT_STALL_RUNS", "1").env("XDG_RUNTIME_DIR", "")
                .jvmArg("-Djava.io.tmpdir=" + open).main(BackgroundSwitchApp.class, "1", "500", "30").run();
        assertEquals(0, r.exitCode, r.toString());
        assertTrue(startLine(r).endsWith("; decided on measuring again (1 time, the CPUs were busy before)"), r.toString());
        assertEquals(1, r.agentLines().stream().filter(l -> l.startsWith("fastclock: java.io.tmpdir " + open + " is not safe")).count(),
                "the refusal of java.io.tmpdir, once\n" + r);
    }

    /** start=background says nothing before its verdict, busy CPUs or not: the start line tells. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void inTheBackgroundOnlyTheStartLineSaysTheMeasurementWasRepeated(Jdk jdk) throws Exception {
        ForkedJvm.Result r = stalledChecks(jdk).agentArgs("start=background,mode=on,library=" + ForkedJvm.faultLibrary("stallcpu")
                + "," + Fixtures.settings(Fixtures.machine("tsc"))).env("FC_FAULT_STALL_RUNS", "1")
                .main(BackgroundSwitchApp.class, "1", "500", "30").run();
        assertEquals(0, r.exitCode, r.toString());
        String start = startLine(r);
        assertEquals(start, r.agentLines().get(0), "a line before the verdict\n" + r);
        assertTrue(start.startsWith("fastclock: active:")
                && start.endsWith("; decided in the background; decided on measuring again (1 time, the CPUs were busy before)"), start);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void cpusBusyThroughoutEndInTheLastMeasurementsDecisionSayingSo(Jdk jdk) throws Exception {
        ForkedJvm.Result r = stalledChecks(jdk).main(BackgroundSwitchApp.class, "1", "0", "30").run();
        System.out.println("[BusyCpusIT] " + jdk + " busy throughout: " + String.join(" / ", r.agentLines())
                + " | verdict after main: " + r.value("verdictAfterMainMs") + " ms");
        assertEquals(0, r.exitCode, r.toString());
        String start = startLine(r);
        assertAll(jdk.toString(),
                () -> assertTrue(r.agentLines().get(0).startsWith(UNDECIDED), r.toString()),
                () -> assertTrue(start.contains("the cross-CPU check failed: it did not finish within its"), start),
                () -> assertTrue(start.endsWith("; decided on measuring again (5 times, the CPUs were busy throughout: "
                        + "the cross-CPU TSC check could not finish (the CPUs were busy))"), start),
                () -> assertTrue(r.value("backends").contains("nanos=system"), r.toString()),
                // Bounded: five later measurements, 250 ms to 4 s apart (7.75 s of waiting in all).
                () -> assertTrue(r.longValue("verdictAfterMainMs") < 20_000, r.toString()),
                () -> assertEquals(1, r.agentLines().stream().filter(l -> l.startsWith("fastclock: undecided:")).count(),
                        "one undecided line (the later ones only with log=debug)\n" + r));
    }

    /**
     * The compiled timing cut short where the system clocks are measured slow (the simulator's ~700 ns
     * reads, timed in C): mode=auto takes the TSC clock unconfirmed at once instead of leaving the
     * slowest clocks in place while it waits (on 26aadc6 it measured again, then again), and confirms it
     * later from compiled Java. The fault library's first 3000 reads of a candidate through JNI each
     * busy-wait tens of microseconds, as reads preempted again and again would (libfastclock-busystart.so).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void aCompiledTimingCutShortBesideSlowSystemClocksTakesTheTscAtOnceAndConfirmsItLater(Jdk jdk) throws Exception {
        HostMachine.assumeTscClock("the TSC clock taken unconfirmed");
        SlowReadCount count = SlowReadCount.create();
        ForkedJvm.Result r = count.underSimulator(ForkedJvm.on(jdk), 500)
                .agentArgs("log=debug,library=" + ForkedJvm.faultLibrary("busystart"))
                .main(BackgroundSwitchApp.class, "1", "3000", "30").run();
        SlowReadCount.Counts counts = count.read();
        System.out.println("[BusyCpusIT] " + jdk + " compiled timing cut short: " + String.join(" / ", r.agentLines()) + " " + counts);
        assertEquals(0, r.exitCode, r.toString());
        String start = startLine(r);
        assertAll(jdk.toString(),
                () -> assertTrue(start.startsWith("fastclock: active: currentTimeMillis -> tsc, nanoTime -> tsc")
                        && start.contains("not yet timed from compiled Java (the CPUs were busy)"), start),
                () -> assertTrue(!start.contains("decided on measuring again"), "taken on the first measurement\n" + start),
                () -> assertTrue(r.stderr.contains("fastclock: confirmed: the TSC clock costs"), "confirmed later\n" + r),
                () -> assertTrue(r.value("backends").contains("nanos=tsc"), "still on the TSC clock once confirmed\n" + r),
                () -> assertTrue(counts.inCountedThreads() <= BackgroundStartIT.MAX_SLOW_READS_AFTER_VERDICT,
                        "after the verdict the reads still reach the slow clock: " + counts + "\n" + r));
    }
}
