package io.fastclock.decide;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fastclock.config.Settings;
import io.fastclock.probe.Fixtures;
import io.fastclock.probe.MachineFacts;
import io.fastclock.probe.Measurements;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The rules the agent asks before the probe (mode=off; a machine whose system clocks are fast) are the
 * decision's own: where they answer, the decision answers the same.
 */
class ActivationRulesTest {
    private static final String FAST_HERE = "fastclock: inactive: system clocks are fast here (";

    @Test
    void aSystemClockIsSlowOnAKnownSlowClocksourceOrOverTheThreshold() {
        assertTrue(ActivationRules.slow(true, 5, 100));
        assertTrue(ActivationRules.slow(false, 101, 100));
        assertFalse(ActivationRules.slow(false, 100, 100));
        assertFalse(ActivationRules.slow(false, Double.NaN, 100), "an unmeasured cost is not over the threshold");
    }

    /**
     * The rule itself, against answers written out here (the test below compares it with the decision,
     * which asks this same rule, so it cannot catch a rule that is wrong in both).
     */
    @ParameterizedTest(name = "{0}, known slow {1}, {2}/{3} ns: {4}")
    @CsvSource({
        "'', false, 24, 23, true",
        "'', false, 100, 100, true",      // at the threshold is not over it
        "'', false, 101, 23, false",
        "'', false, 24, 101, false",
        "'', true, 24, 23, false",        // a known-slow clocksource is slow whatever it cost
        "'', false, NaN, 23, false",      // unmeasured: the probe decides
        "'', false, 24, NaN, false",
        "threshold=20, false, 24, 23, false",
        "threshold=1000000, false, 900, 900, true",
        "mode=on, false, 24, 23, false",  // only when everything is left to auto
        "millis=coarse, false, 24, 23, false",
        "nanos=system, false, 24, 23, false",
        "mode=off, false, 24, 23, false",
        "jdk=all, false, 24, 23, true",   // settings that choose no backend keep auto's shortcut
    })
    void theClocksAreFastOnlyWhenEverythingIsAutoAndBothCostsAreMeasuredAndUnderTheThreshold(String args,
            boolean knownSlow, double millisNs, double nanosNs, boolean fast) {
        assertEquals(fast, ActivationRules.fastHere(DecisionMakerTest.settings(args), knownSlow, millisNs, nanosNs));
    }

    @Test
    void modeOffIsTheDecisionsOffToo() {
        Settings off = DecisionMakerTest.settings("mode=off,millis=tsc");
        assertTrue(ActivationRules.off(off));
        assertFalse(ActivationRules.off(DecisionMakerTest.settings("mode=on")));
        Decision d = new DecisionMaker().decide(off, Fixtures.read("hpet-healthy-tsc"), DecisionMakerTest.hpet(4_000_000),
                DecisionMakerTest.JNI, DecisionMakerTest.HEALTHY);
        assertEquals(Reasons.OFF_LINE, d.summary());
        assertFalse(TscRules.checksWorthRunning(off, Fixtures.read("hpet-healthy-tsc"), DecisionMakerTest.JNI));
    }

    /**
     * The fast-clocks verdict against a table written out by hand (not derived from the rule the
     * decision calls): everything left to auto, a clocksource not known to be slow, and both costs
     * measured and within the threshold (fast: 24/23 ns, HPET-like: 600/612 ns; default threshold 100 ns).
     */
    @Test
    void theFastClocksVerdictComesExactlyWhereTheTableSays() {
        Set<String> expectedFast = new HashSet<>(Arrays.asList(
                " on tsc, fast", " on container-no-sys, fast",
                "threshold=1000000 on tsc, fast", "threshold=1000000 on tsc, hpet",
                "threshold=1000000 on container-no-sys, fast", "threshold=1000000 on container-no-sys, hpet",
                "library=/nonexistent.so on tsc, fast", "library=/nonexistent.so on container-no-sys, fast"));
        Map<String, Measurements> costs = new LinkedHashMap<>();
        costs.put("fast", DecisionMakerTest.fast(4_000_000));
        costs.put("hpet", DecisionMakerTest.hpet(4_000_000));
        costs.put("unmeasured", Measurements.none());
        Set<String> fast = new HashSet<>();
        for (String args : new String[] {"", "mode=on", "mode=off", "millis=coarse", "nanos=tsc", "millis=system",
                "threshold=20", "threshold=1000000", "library=/nonexistent.so"}) {
            Settings s = DecisionMakerTest.settings(args);
            for (String machine : new String[] {"tsc", "hpet-healthy-tsc", "container-no-sys"}) {
                MachineFacts f = Fixtures.read(machine);
                for (Map.Entry<String, Measurements> m : costs.entrySet()) {
                    Decision d = new DecisionMaker().decide(s, f, m.getValue(), DecisionMakerTest.JNI, DecisionMakerTest.HEALTHY);
                    String where = args + " on " + machine + ", " + m.getKey();
                    if (d.summary().startsWith(FAST_HERE)) {
                        fast.add(where);
                        assertFalse(d.active(), where);
                        assertEquals(Reasons.fastHereLine(f.clocksourceForDisplay(),
                                Reasons.ns(m.getValue().realtimeNs()), Reasons.ns(m.getValue().monotonicNs()),
                                s.thresholdNs()), d.summary());
                    }
                }
            }
        }
        assertEquals(new TreeSet<>(expectedFast), new TreeSet<>(fast));
    }
}
