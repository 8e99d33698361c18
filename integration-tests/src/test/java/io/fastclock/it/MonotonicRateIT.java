package io.fastclock.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fastclock.it.apps.DemotionApp;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * CLOCK_MONOTONIC changes rate under a running TSC clock (the simulator's SLOWCLOCK_MONO_PPM: from
 * 1.5 s after start it runs 5000 ppm fast or slow, the TSC does not). The TSC clock can no longer
 * follow System.nanoTime, so it must notice (the rate moved from its calibration, or the clock
 * drifted from CLOCK_MONOTONIC), fall back once, and never go backwards on the way, even when it
 * was ahead of the system clock.
 *
 * <p>Proves, in docs/CONTRACT.md: activation.fallback, nanos.monotonic, nanos.origin.
 */
class MonotonicRateIT {
    static final int RATE_CHANGE_AT_MS = 1500;
    /** Where a leading clock's floor may still hold nanoTime above System.nanoTime (see the bound below). */
    static final int SETTLE_MS = 50;
    /**
     * The TSC clock gives up at 2 ms from CLOCK_MONOTONIC (or 1000 ppm of rate), checked once a
     * re-anchor (250 ms), and slews at most 500 ppm: at 5000 ppm it is at most 2 ms + 1.1 ms off
     * by then. 5 ms leaves room for an anchor thread a few hundred ms late; a clock that never
     * noticed is about 10 ms off by the end of the run.
     */
    static final long MAX_DEVIATION_NS = 5_000_000L;

    static List<Arguments> cases() {
        List<Arguments> cases = new ArrayList<>();
        // One JDK: noticing the rate change is the TSC clock's own work, the same on every JDK.
        for (Jdk jdk : Jdk.one()) {
            cases.add(Arguments.of(jdk, +5000));
            cases.add(Arguments.of(jdk, -5000));
        }
        return cases;
    }

    @ParameterizedTest(name = "{0} {1} ppm")
    @MethodSource("cases")
    void theTscClockNoticesAndFallsBackWithoutGoingBackwards(Jdk jdk, int ppm) throws Exception {
        HostMachine.assumeTscClock("the TSC clock's fallback on a CLOCK_MONOTONIC rate change");
        ForkedJvm.Result r = ForkedJvm.on(jdk)
                .env("LD_PRELOAD", ForkedJvm.slowClockLibrary().toString())
                .env("SLOWCLOCK_FINE", "vdso")
                .env("SLOWCLOCK_MONO_PPM", RATE_CHANGE_AT_MS + ":" + (ppm > 0 ? "+" : "") + ppm)
                .agentArgs("mode=on,log=debug")
                .main(DemotionApp.class, "-", "2", Integer.toString(SETTLE_MS)).run();
        System.out.println("[MonotonicRateIT] " + jdk + " " + ppm + " ppm: " + r.stdout.replace('\n', ' '));
        assertEquals(0, r.exitCode, r.toString());
        assertTrue(!r.stderr.contains("slowclock: ignoring"), r.toString());
        assertEquals(HostMachine.backendsWithTsc(), r.value("backends"), r.toString());
        assertTrue(r.stderr.contains("fastclock: rewrote io.fastclock.it.apps.DemotionApp ("), "not rewritten\n" + r);
        assertTrue(r.longValue("readsBeforeFallback") > 10_000, r.toString());

        List<String> disabled = new ArrayList<>();
        for (String line : r.agentLines()) {
            if (line.contains("TSC clock disabled")) {
                disabled.add(line);
            }
        }
        assertEquals(1, disabled.size(), "the fallback is logged exactly once\n" + r);
        System.out.println("[MonotonicRateIT] " + jdk + " " + ppm + " ppm: " + disabled.get(0));
        assertTrue(disabled.get(0).contains("rate moved") || disabled.get(0).contains("drifted"),
                "the reason is the rate or the drift\n" + r);

        assertEquals(0, r.longValue("backwardsSingleThread"), r.toString());
        assertEquals(0, r.longValue("backwardsAcrossThreads"), r.toString());
        assertTrue(r.longValue("worstDeviationNs") <= MAX_DEVIATION_NS, "the TSC clock noticed too late\n" + r);
        assertTrue(r.longValue("postFallbackReads") > 10_000, r.toString());
        assertEquals(0, r.longValue("postFallbackOutside"), "not on the system clock after the fallback\n" + r);
    }
}
