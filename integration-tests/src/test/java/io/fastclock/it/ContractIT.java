package io.fastclock.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fastclock.it.apps.CoarseLagApp;
import io.fastclock.it.apps.ContractApp;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The clock contract (docs/CONTRACT.md), measured through rewritten call sites in a real JVM with the
 * agent attached, for each backend the agent can install on this machine.
 *
 * <p>Proves, in docs/CONTRACT.md: millis.lag, millis.resolution, nanos.origin, nanos.monotonic,
 * nanos.resolution, activation.auto.
 */
class ContractIT {
    /** nanos.switch: the most nanoTime may step against System.nanoTime where its backend changes under a running program. */
    static final long MAX_SWITCH_STEP_NS = 20_000;
    /**
     * One JDK: the clauses here are the backends' (the TSC clock, the coarse clock), the same on every JDK;
     * the rewriting that puts a call on them is proven on all four (ActivationIT, PoolRewriteIT, JdkScopeIT).
     */
    static List<Jdk> jdks() {
        return Jdk.one();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void tscBackendsKeepTheContract(Jdk jdk) throws Exception {
        HostMachine.assumeTscClock("the TSC clocks' contract");
        // Named, so that a 1 ms kernel tick (where mode=on takes the coarse millis) still tests the TSC millis.
        ForkedJvm.Result r = ForkedJvm.on(jdk).agentArgs("mode=on,millis=tsc,nanos=tsc,log=debug")
                .main(ContractApp.class, "1.5", "4").run();
        assertEquals(0, r.exitCode, r.toString());
        assertEquals("millis=tsc,nanos=tsc", r.value("backends"), r.toString());
        assertNanosContract(r);
        assertMillisContract(r, 1, 1);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void coarseMillisKeepsItsStatedLag(Jdk jdk) throws Exception {
        ForkedJvm.Result r = AgentJars.withJna(ForkedJvm.on(jdk).agentArgs("mode=on,millis=coarse,nanos=system,log=debug"), jdk)
                .main(CoarseLagApp.class, "1500").run();
        assertEquals(0, r.exitCode, r.toString());
        CoarseLagIT.assertOnCoarseUnlessTheKernelsClockOutranTheCap(jdk, r);
        assertTrue(r.stderr.contains("fastclock: rewrote io.fastclock.it.apps.CoarseLagApp ("), "CoarseLagApp not rewritten\n" + r);
        // The start-up line states the resolution (one kernel tick) and the lag L.
        StatedLag stated = StatedLag.of(r);
        stated.assertPublished(r.longValue("startLagMs"), r);
        // At least two ticks; more where the coarse clock was measured further behind at start-up.
        assertTrue(stated.startMs >= 2 * stated.resolutionMs, r.toString());
        assertTrue(r.longValue("smallestStepMs") <= stated.resolutionMs + 1, r.toString());
        CoarseLagIT.assertServesTheKernelsCoarseClock(jdk, r, stated.startMs);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void underTheSlowClocksourceAutoActivatesAndKeepsTheContract(Jdk jdk) throws Exception {
        ForkedJvm.Result r = ForkedJvm.on(jdk).slowClocksource(0).agentArgs("log=debug").main(ContractApp.class, "1.5", "4").run();
        assertEquals(0, r.exitCode, r.toString());
        assertTrue(r.stderr.contains("fastclock: active:"), r.toString());
        assertNanosContract(r); // through a later verdict too: the app's reads cross the switch
        BusyHost.assumeDecidedBeforeMain(r); // the backends it prints at main's start need the verdict then
        // nanoTime moves only to a TSC clock; where the host cannot have one it stays on the system
        // clock (a coarse nanoTime only when named), and the contract holds all the same.
        assertTrue(r.value("backends").contains(HostMachine.hasTscClock() ? "nanos=tsc" : "nanos=system"), r.toString());
        assertNanosContract(r);
    }

    /** Without this, an agent that rewrote nothing would pass every bound trivially. */
    private static void assertRewritten(ForkedJvm.Result r) {
        assertTrue(r.stderr.contains("fastclock: rewrote io.fastclock.it.apps.ContractApp ("), "ContractApp not rewritten\n" + r);
    }

    private static void assertNanosContract(ForkedJvm.Result r) {
        assertRewritten(r);
        assertTrue(r.longValue("nanos.reads") > 10_000, r.toString());
        assertEquals(0, r.longValue("nanos.backwardsSingleThread"), r.toString());
        assertEquals(0, r.longValue("nanos.backwardsAcrossThreads"), r.toString());
        assertTrue(r.longValue("nanos.crossThreadReads") > 10_000, r.toString());
        assertTrue(r.longValue("nanos.worstDeviationNs") <= 100_000, "more than 100 us from System.nanoTime\n" + r);
        assertTrue(r.longValue("nanos.rateIntervalMs") >= 1000, r.toString());
        assertTrue(Math.abs(r.doubleValue("nanos.rateErrorPpm")) <= 50, "rate off by more than 50 ppm\n" + r);
        assertTrue(r.longValue("nanos.smallestStepNs") < 1000, "nanoTime resolution not under 1 us\n" + r);
    }

    private static void assertMillisContract(ForkedJvm.Result r, long lagMs, long resolutionMs) {
        assertRewritten(r);
        assertTrue(r.longValue("millis.reads") > 10_000, r.toString());
        assertTrue(r.longValue("millis.worstBehindMs") <= lagMs, "millis lagged more than " + lagMs + " ms\n" + r);
        assertTrue(r.longValue("millis.worstAheadMs") <= 1, "millis ran ahead of the system clock\n" + r);
        assertTrue(r.longValue("millis.smallestStepMs") <= resolutionMs, r.toString());
    }
}
