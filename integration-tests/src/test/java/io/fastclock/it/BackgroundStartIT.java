package io.fastclock.it;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fastclock.it.apps.BackgroundSwitchApp;
import io.fastclock.it.apps.ExitAtApp;
import io.fastclock.it.apps.HelloApp;
import io.fastclock.it.apps.VerdictHaltApp;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * start=background, the default (issue 19, item 1; issue 27, item 2): premain returns at once, main
 * runs on the system clocks while the agent decides on its own thread, then the agent takes over what
 * has loaded as an attach does. Proves, through that switch, the clauses a running application can see change under it
 * (docs/CONTRACT.md): nanos.monotonic in one thread and across threads, millis.lag, epoch.bounds;
 * that after the verdict the rewritten reads no longer reach the slow clock (counted, not timed);
 * and that a JVM ending before the verdict ends as it would without the agent.
 */
class BackgroundStartIT {
    static final Pattern LAG = Pattern.compile("lag up to (\\d+) ms");
    /** 10,000 rounds of one nanoTime and one currentTimeMillis in the counted window. */
    static final long MAX_SLOW_READS_AFTER_VERDICT = 20;

    static Jdk[] jdks() {
        return Jdk.all().toArray(new Jdk[0]);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void theSwitchKeepsTheContractAndTakesOverTheReads(Jdk jdk) throws Exception {
        HostMachine.assumeTscClock("nanoTime on the TSC clock after the verdict");
        SlowReadCount count = SlowReadCount.create();
        // No setting at all: deciding in the background is the default.
        ForkedJvm.Result r = count.underSimulator(ForkedJvm.on(jdk), 0)
                .main(BackgroundSwitchApp.class, "2", "500", "30").run();
        SlowReadCount.Counts counts = count.read();
        System.out.println("[BackgroundStartIT] " + jdk + ": " + r.stdout.replace('\n', ' ') + counts);
        assertEquals(0, r.exitCode, r.toString());
        String start = startLine(r);
        Matcher lag = LAG.matcher(start);
        assertTrue(lag.find(), r.toString());
        long lagMs = Long.parseLong(lag.group(1));
        assertAll(jdk.toString(),
                () -> assertEquals("null", r.value("activeAtMain"), "the verdict was in before main began\n" + r),
                // A JVM that ends before the verdict must not wait for it.
                () -> assertEquals("daemon", r.value("startThread"), r.toString()),
                () -> assertEquals("true", r.value("active"), r.toString()),
                // On a busy host the verdict may come from a later measurement (activation.busy): then said too.
                () -> assertTrue(start.startsWith("fastclock: active:")
                        && start.matches(".*; decided in the background(; decided on measuring again \\(.*\\))?"), start),
                () -> assertTrue(r.value("backends").contains("nanos=tsc"), r.toString()),
                () -> assertTrue(r.longValue("reads") > r.longValue("readsAfterVerdict") && r.longValue("readsAfterVerdict") > 1000,
                        "reads on both sides of the verdict\n" + r),
                () -> assertEquals(0, r.longValue("nanos.backwardsSingleThread"), "nanoTime backwards in one thread\n" + r),
                () -> assertEquals(0, r.longValue("nanos.backwardsAcrossThreads"), "nanoTime backwards across threads\n" + r),
                // nanos.origin: within 100 us of System.nanoTime read around it, through the switch.
                () -> assertTrue(r.longValue("nanos.worstOutsideReferenceNs") <= 100_000,
                        "nanoTime left System.nanoTime by more than 100 us\n" + r),
                // nanos.switch: no step between two reads in a row (a backwards step a floor turns into a
                // stall), nor where nanoTime stands after the switch, against System.nanoTime.
                () -> assertTrue(r.longValue("nanos.worstStepNs") <= ContractIT.MAX_SWITCH_STEP_NS,
                        "nanoTime stepped by more than " + ContractIT.MAX_SWITCH_STEP_NS + " ns against System.nanoTime\n" + r),
                () -> assertTrue(Math.abs(r.longValue("nanos.offsetAfterSwitchNs")) <= ContractIT.MAX_SWITCH_STEP_NS,
                        "nanoTime stands more than " + ContractIT.MAX_SWITCH_STEP_NS + " ns off System.nanoTime after the switch\n" + r),
                () -> assertTrue(r.longValue("millis.worstBehindMs") <= lagMs, "millis past L = " + lagMs + " ms\n" + r),
                () -> assertTrue(r.longValue("millis.worstAheadMs") <= 1, "millis ahead\n" + r),
                () -> assertEquals(0, r.longValue("instant.outside"), "Instant.now() outside [ref - 1 ms, ref + 1 ms]\n" + r),
                () -> assertTrue(counts.inCountedThreads() <= MAX_SLOW_READS_AFTER_VERDICT,
                        "after the verdict the rewritten reads still reach the slow clock: " + counts + "\n" + r));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void anApplicationInterruptingEveryThreadDoesNotStopTheVerdict(Jdk jdk) throws Exception {
        ForkedJvm.Result r = ForkedJvm.on(jdk).slowClocksource(0).agentArgs("start=background")
                .main(BackgroundSwitchApp.class, "1", "0", "30", "interrupt").run();
        assertEquals(0, r.exitCode, r.toString());
        assertTrue(r.longValue("startThreadInterrupts") > 0, "the start thread was never there to interrupt\n" + r);
        assertEquals("true", r.value("active"), r.toString());
        assertTrue(startLine(r).startsWith("fastclock: active:"), r.toString());
        assertTrue(!r.stderr.contains("not started"), r.toString());
    }

    /** host.no-rights: the settings are the deployer's, read before main; what main sets later is ignored. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void settingsTheApplicationSetsWhileTheAgentDecidesAreIgnored(Jdk jdk) throws Exception {
        ForkedJvm.Result r = ForkedJvm.on(jdk).slowClocksource(0).agentArgs("start=background")
                .main(BackgroundSwitchApp.class, "1", "0", "30", "setSettings").run();
        assertEquals(0, r.exitCode, r.toString());
        assertEquals("null", r.value("activeAtMain"), r.toString());
        assertEquals("true", r.value("active"), "a setting main made after premain decided\n" + r);
        assertTrue(startLine(r).startsWith("fastclock: active:") && !r.stderr.contains("nonexistent"), r.toString());
    }

    /**
     * The start line is written before the verdict is published: an application that ends the JVM the
     * moment it sees fastclock.active still finds the line on stderr (once in CI the line was lost when
     * the verdict was published first).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void theStartLineIsWrittenBeforeTheVerdictIsPublished(Jdk jdk) throws Exception {
        for (int i = 0; i < 3; i++) {
            ForkedJvm.Result r = ForkedJvm.on(jdk).slowClocksource(0).agentArgs("start=background")
                    .main(VerdictHaltApp.class, "30").run();
            assertEquals(0, r.exitCode, r.toString());
            assertEquals("", r.stdout, "the verdict never came\n" + r);
            assertTrue(startLine(r).startsWith("fastclock: active:"), r.toString());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void aJvmThatEndsBeforeTheVerdictEndsAsWithoutTheAgent(Jdk jdk) throws Exception {
        ForkedJvm.Result without = ForkedJvm.on(jdk).slowClocksource(0).withoutAgent().main(HelloApp.class).run();
        // Given as a system property this time: the entry reads the key from every source.
        ForkedJvm.Result with = ForkedJvm.on(jdk).slowClocksource(0).agentArgs("log=debug").programEndsFirst()
                .jvmArg("-Dfastclock.start=background").main(HelloApp.class).run();
        System.out.println("[BackgroundStartIT] " + jdk + " hello: " + with.stdout.replace('\n', ' ') + "| stderr: "
                + with.stderr.replace('\n', ' '));
        assertEquals(0, with.exitCode, with.toString());
        assertEquals("null", with.value("active"), "the verdict was in before main began\n" + with);
        // premain set the runtime up (every class loading since calls FastClock), which serves the JDK's
        // clocks until a verdict that never came: the application saw the system clocks, as without it.
        assertTrue(ForkedJvm.onSystemBackends(with.value("backends")), with.toString());
        assertEquals(without.stdout, with.stdout.replace("backends=millis=system,nanos=system", "backends=none"), with.toString());
        for (String line : with.stderr.split("\n")) {
            // Only what the agent says on its way to a verdict the JVM may not wait for; never a failure.
            assertTrue(line.isEmpty() || line.startsWith("fastclock: ") && !line.contains("not started"),
                    "stderr: " + line + "\n" + with);
        }
    }

    /** The JVM ends at moments spread over the agent's start: always as it would without the agent. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void aJvmEndingAtAnyMomentOfTheStartEndsCleanly(Jdk jdk) throws Exception {
        for (int ms = 0; ms <= 320; ms += 40) {
            String how = (ms / 40) % 2 == 0 ? "return" : "exit";
            ForkedJvm.Result r = ForkedJvm.on(jdk).slowClocksource(0).agentArgs("start=background")
                    .main(ExitAtApp.class, Integer.toString(ms), how).run();
            String where = jdk + ", ending by " + how + " after " + ms + " ms: ";
            assertEquals(how.equals("exit") ? 3 : 0, r.exitCode, where + r);
            assertTrue(r.stdout.startsWith("reads="), where + r);
            for (String line : r.stderr.split("\n")) {
                assertTrue(line.isEmpty() || line.startsWith("fastclock: active:") || line.startsWith("fastclock: inactive:"),
                        where + "stderr: " + line + "\n" + r);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void aBadStartValueIsRejectedAndTheApplicationRuns(Jdk jdk) throws Exception {
        ForkedJvm.Result r = ForkedJvm.on(jdk).slowClocksource(0).agentArgs("start=later").main(HelloApp.class).run();
        assertEquals(0, r.exitCode, r.toString());
        assertEquals("hello=ok", r.stdout.split("\n")[0], r.toString());
        assertTrue(r.stderr.startsWith("fastclock: bad setting start=later (agent argument): accepted values are wait, background"),
                r.toString());
        assertEquals("none", r.value("backends"), r.toString());
    }

    private static String startLine(ForkedJvm.Result r) {
        String found = null;
        for (String line : r.agentLines()) {
            if (line.startsWith("fastclock: active:") || line.startsWith("fastclock: inactive:")) {
                assertEquals(null, found, "two start lines\n" + r);
                found = line;
            }
        }
        assertNotNull(found, "no start line\n" + r);
        return found;
    }
}
