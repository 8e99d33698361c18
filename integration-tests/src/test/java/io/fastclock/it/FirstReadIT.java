package io.fastclock.it;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fastclock.it.apps.FirstReadApp;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Served from the first read (issue 34; activation.background in docs/CONTRACT.md): at the defaults,
 * with no setting at all, every call site is fastclock's once the verdict is in, whatever ran before
 * it: a loop in main from its first instruction, a method entered before the verdict and looping after
 * it, method references to System::currentTimeMillis and System::nanoTime bound before it. premain
 * rewrites every class that loads to FastClock, which serves the JDK's clocks until the verdict
 * switches it. Counted with the simulator's counter, not timed: on 26aadc6, which took over by
 * retransformation alone, every one of those reads stayed on the slow clock.
 */
class FirstReadIT {
    static final int WINDOW = 20_000;
    /**
     * Fine reads the windows' threads make that are not the program's: HotSpot stamps each compilation
     * a Java thread queues (CompileTask's queue time; on JDK 11 with gettimeofday too), and deoptimising
     * at the switch queues some. Measured 16 to 57 here; 0 with -XX:-UseCompiler. A shape left on the
     * slow clock would add WINDOW reads of each clock.
     */
    static final long MAX_VM_READS = 200;

    static Jdk[] jdks() {
        return Jdk.all().toArray(new Jdk[0]);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void everyShapeOfReadStartedBeforeTheVerdictIsServedAfterIt(Jdk jdk) throws Exception {
        HostMachine.assumeTscClock("both clocks on the TSC clock after the verdict");
        SlowReadCount count = SlowReadCount.create();
        ForkedJvm.Result r = count.underSimulator(ForkedJvm.on(jdk), 0)
                .main(FirstReadApp.class, Integer.toString(WINDOW), "30").run();
        SlowReadCount.Counts counts = count.read();
        System.out.println("[FirstReadIT] " + jdk + ": " + r.stdout.replace('\n', ' ') + counts);
        assertVerdictServesTheWindows(r, counts);
    }

    /**
     * A program that reads a serialised slow clock (an HPET) from its first instruction, on one and two
     * threads beside main, slows the agent's own timing of that clock: the verdict must still come, and
     * be active (activation.busy: "could not measure" is not "slower"), every run.
     */
    @ParameterizedTest(name = "{0} reading thread(s)")
    @ValueSource(ints = {1, 2})
    void aProgramReadingASerialisedClockFromItsFirstInstructionStillGetsTheVerdict(int threads) throws Exception {
        HostMachine.assumeTscClock("both clocks on the TSC clock after the verdict");
        for (int run = 0; run < 2; run++) {
            SlowReadCount count = SlowReadCount.create();
            ForkedJvm.Result r = count.underSimulator(ForkedJvm.on(Jdk.current()), 500)
                    .env("SLOWCLOCK_SERIALIZE", "1")
                    .main(FirstReadApp.class, Integer.toString(WINDOW), "30", Integer.toString(threads)).run();
            SlowReadCount.Counts counts = count.read();
            System.out.println("[FirstReadIT] serialised, " + threads + " thread(s), run " + run + ": "
                    + r.stdout.replace('\n', ' ') + counts + " " + r.agentLines());
            assertVerdictServesTheWindows(r, counts);
        }
    }

    private static void assertVerdictServesTheWindows(ForkedJvm.Result r, SlowReadCount.Counts counts) {
        assertEquals(0, r.exitCode, r.toString());
        assertAll(
                () -> assertEquals("null", r.value("verdictAtMain"), "the verdict came before main: nothing to prove\n" + r),
                () -> assertEquals("true", r.value("verdict"), "no active verdict within the wait\n" + r),
                () -> assertTrue(r.agentLines().stream().anyMatch(l -> l.startsWith("fastclock: active:")), r.toString()),
                () -> assertTrue(r.longValue("mainReadsBeforeWindow") > 0 && r.longValue("enteredReadsBeforeWindow") > 0,
                        "the loops read before the verdict\n" + r),
                () -> assertTrue(counts.inCountedThreads() <= MAX_VM_READS, "of " + r.value("reads") + " reads after the"
                        + " verdict, started before it, these still reached the slow clock: " + counts + "\n" + r));
    }
}
