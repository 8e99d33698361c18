package io.fastclock.decide;

import io.fastclock.config.Backend;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fastclock.config.Settings;
import io.fastclock.probe.Fixtures;
import io.fastclock.probe.MachineFacts;
import io.fastclock.probe.Measurements;
import io.fastclock.probe.NativeStatus;
import io.fastclock.probe.TscHealth;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class DecisionMakerTest {

    private static final DecisionMaker MAKER = new DecisionMaker();

    /** An HPET machine: fine reads are syscalls, coarse reads vDSO. */
    static Measurements hpet(long coarseResNs) {
        return Measurements.builder().realtimeNs(600).monotonicNs(612).realtimeCoarseNs(8).monotonicCoarseNs(8)
                .tscNs(15).jnaCoarseNs(160).coarseResolutionNs(coarseResNs).compiledRealtimeNs(600).compiledMonotonicNs(612).coarseLagNs(coarseResNs * 3 / 4).build();
    }

    /** A machine on the tsc clocksource: everything is vDSO-fast. */
    static Measurements fast(long coarseResNs) {
        return Measurements.builder().realtimeNs(24).monotonicNs(23).realtimeCoarseNs(7).monotonicCoarseNs(7)
                .tscNs(15).jnaCoarseNs(160).coarseResolutionNs(coarseResNs).compiledRealtimeNs(24).compiledMonotonicNs(23).coarseLagNs(coarseResNs * 3 / 4).build();
    }

    static final NativeStatus JNI = NativeStatus.jniOnly();
    static final NativeStatus NO_NATIVE = new NativeStatus(false, "UnsatisfiedLinkError: noexec /tmp", false,
            "ClassNotFoundException: com.sun.jna.Native");
    static final NativeStatus JNA_ONLY = new NativeStatus(false, "UnsatisfiedLinkError: noexec /tmp", true, null);
    static final TscHealth HEALTHY = TscHealth.healthy();
    static final TscHealth BACKWARDS = new TscHealth(true, true, true, null, false,
            "TSC went backwards 3 times across 2 CPUs, worst 120 ticks");

    static Settings settings(String args) {
        return Settings.parse(args, Collections.<String, String>emptyMap());
    }

    static Decision decide(String args, String machine, Measurements m, NativeStatus n, TscHealth h) {
        Decision d = MAKER.decide(settings(args), Fixtures.read(machine), m, n, h);
        assertSane(d);
        return d;
    }

    static void assertSane(Decision d) {
        for (String line : allText(d)) {
            assertFalse(line.contains("\n"), "one line: " + line);
            assertFalse(line.contains("null"), "no null in: " + line);
            assertFalse(line.contains("NaN"), "no NaN in: " + line);
        }
        assertTrue(d.summary().startsWith(d.active() ? "fastclock: active: " : "fastclock: inactive: "), d.summary());
        assertEquals(d.millis().backend() != Backend.SYSTEM || d.nanos().backend() != Backend.SYSTEM, d.active());
        if (d.millis().backend() == Backend.SYSTEM) {
            assertEquals(0, d.millis().lagNs());
        }
    }

    static List<String> allText(Decision d) {
        List<String> all = new java.util.ArrayList<>(d.warnings());
        all.add(d.summary());
        all.add(d.millis().reason());
        all.add(d.nanos().reason());
        return all;
    }

    static void assertContains(String text, String... parts) {
        for (String p : parts) {
            assertTrue(text.contains(p), "expected '" + p + "' in: " + text);
        }
    }

    // ------------------------------------------------------------------ fixture machines

    @Test
    void hpetWithHealthyTscAndFourMsTicks() {
        Decision d = decide("", "hpet-healthy-tsc", hpet(4_000_000), JNI, HEALTHY);
        assertEquals(Backend.TSC, d.millis().backend());
        assertEquals(Backend.TSC, d.nanos().backend());
        assertEquals(1_000_000, d.millis().lagNs());
        assertContains(d.millis().reason(), "600 ns", "hpet", "every 4 ms", "15 ns");
        assertContains(d.nanos().reason(), "612 ns", "hpet", "TSC");
        assertEquals("fastclock: active: currentTimeMillis -> tsc, nanoTime -> tsc (clocksource hpet; "
                + "System.currentTimeMillis 600 ns/call, System.nanoTime 612 ns/call)", d.summary());
        assertEquals(Collections.emptyList(), d.warnings());
    }

    @Test
    void eachTscClockQuotesTheReadItUses() {
        Measurements m = Measurements.builder().realtimeNs(600).monotonicNs(612).realtimeCoarseNs(8).tscNs(27)
                .tscMillisNs(9.5).coarseResolutionNs(4_000_000).compiledRealtimeNs(600).compiledMonotonicNs(612)
                .coarseLagNs(3_000_000).build();
        Decision d = decide("mode=on", "hpet-healthy-tsc", m, JNI, HEALTHY);
        assertContains(d.millis().reason(), "the TSC clock (9.5 ns a TSC read)");
        assertContains(d.nanos().reason(), "the TSC clock (27 ns a TSC read)");
    }

    @Test
    void hpetWithHealthyTscAndOneMsTicksPrefersCoarseMillis() {
        Decision d = decide("", "hpet-healthy-tsc", hpet(1_000_000), JNI, HEALTHY);
        assertEquals(Backend.COARSE, d.millis().backend());
        assertEquals(2_000_000, d.millis().lagNs());
        assertContains(d.millis().reason(), "600 ns", "hpet", "8 ns", "every 1 ms", "up to 2 ms");
        assertEquals(Backend.TSC, d.nanos().backend());
        assertContains(d.summary(), "currentTimeMillis -> coarse", "nanoTime -> tsc");
        assertEquals(2_000_000, d.millis().lagNs());
    }

    @Test
    void hpetWithTscDemotedByTheWatchdog() {
        Decision d = decide("", "hpet-tsc-demoted", hpet(4_000_000), JNI, HEALTHY);
        assertEquals(Backend.COARSE, d.millis().backend());
        assertEquals(8_000_000, d.millis().lagNs());
        assertContains(d.millis().reason(), "hpet", "available_clocksource", "every 4 ms", "up to 8 ms");
        assertEquals(Backend.SYSTEM, d.nanos().backend());
        assertContains(d.nanos().reason(), "612 ns", "hpet", "available_clocksource", "nanos=coarse");
        assertTrue(d.active());
    }

    @Test
    void hpetWithoutNonstopTsc() {
        Decision d = decide("", "no-nonstop-tsc", hpet(4_000_000), JNI, HEALTHY);
        assertEquals(Backend.COARSE, d.millis().backend());
        assertContains(d.millis().reason(), "nonstop_tsc");
        assertEquals(Backend.SYSTEM, d.nanos().backend());
        assertContains(d.nanos().reason(), "nonstop_tsc");
    }

    @Test
    void theActiveLineSaysWhyTheTscWasNotUsed() {
        Decision d = decide("mode=on", "no-nonstop-tsc", fast(4_000_000), JNI, HEALTHY);
        assertEquals(Backend.SYSTEM, d.nanos().backend());
        assertContains(d.summary(), "fastclock: active: ", "TSC not used: ", "nonstop_tsc");

        Decision usesTsc = decide("mode=on", "tsc", fast(4_000_000), JNI, HEALTHY);
        assertFalse(usesTsc.summary().contains("TSC not used"), usesTsc.summary());
        Decision tscNotAsked = decide("mode=on,nanos=system,millis=coarse", "no-nonstop-tsc", fast(4_000_000), JNI, HEALTHY);
        assertFalse(tscNotAsked.summary().contains("TSC not used"), tscNotAsked.summary());
    }

    @Test
    void xenGuest() {
        Measurements xen = Measurements.builder().realtimeNs(950).monotonicNs(940).realtimeCoarseNs(9)
                .monotonicCoarseNs(9).tscNs(18).coarseResolutionNs(4_000_000).compiledRealtimeNs(950).compiledMonotonicNs(940).coarseLagNs(4_000_000 * 3 / 4).build();
        Decision d = decide("", "xen", xen, JNI, HEALTHY);
        assertEquals(Backend.TSC, d.millis().backend());
        assertEquals(Backend.TSC, d.nanos().backend());
        assertContains(d.nanos().reason(), "940 ns", "xen");
        assertContains(d.summary(), "clocksource xen");

        Decision unhealthy = decide("", "xen", xen, JNI, BACKWARDS);
        assertEquals(Backend.COARSE, unhealthy.millis().backend());
        assertEquals(Backend.SYSTEM, unhealthy.nanos().backend());
        assertContains(unhealthy.nanos().reason(), "xen", "went backwards 3 times across 2 CPUs, worst 120 ticks");
    }

    @Test
    void acpiPm() {
        Measurements acpi = Measurements.builder().realtimeNs(1400).monotonicNs(1390).realtimeCoarseNs(8)
                .monotonicCoarseNs(8).coarseResolutionNs(4_000_000).compiledRealtimeNs(1400).compiledMonotonicNs(1390).coarseLagNs(4_000_000 * 3 / 4).build();
        Decision d = decide("", "acpi_pm", acpi, JNI, TscHealth.notChecked());
        assertEquals(Backend.COARSE, d.millis().backend());
        assertContains(d.millis().reason(), "1400 ns", "acpi_pm", "constant_tsc");
        assertEquals(Backend.SYSTEM, d.nanos().backend());
        assertContains(d.nanos().reason(), "1390 ns", "acpi_pm", "constant_tsc");
    }

    @Test
    void tscClocksourceStaysOnTheSystemClocks() {
        Decision d = decide("", "tsc", fast(4_000_000), JNI, HEALTHY);
        assertFalse(d.active());
        assertEquals(Backend.SYSTEM, d.millis().backend());
        assertEquals(Backend.SYSTEM, d.nanos().backend());
        assertEquals("System.currentTimeMillis costs 24 ns here (clocksource tsc), under the 100 ns threshold, "
                + "so currentTimeMillis stays on the system clock.", d.millis().reason());
        assertContains(d.nanos().reason(), "23 ns", "clocksource tsc", "100 ns threshold");
        assertEquals("fastclock: inactive: system clocks are fast here (clocksource tsc; currentTimeMillis 24 ns, "
                + "nanoTime 23 ns; threshold 100 ns)", d.summary());
    }

    @Test
    void tscClocksourceModeOnPicksTscOrCoarse() {
        Decision d = decide("mode=on", "tsc", fast(4_000_000), JNI, HEALTHY);
        assertEquals(Backend.TSC, d.millis().backend());
        assertEquals(Backend.TSC, d.nanos().backend());
        assertContains(d.millis().reason(), "mode=on", "24 ns");

        Decision fine = decide("mode=on", "tsc", fast(1_000_000), JNI, HEALTHY);
        assertEquals(Backend.COARSE, fine.millis().backend());
        assertEquals(Backend.TSC, fine.nanos().backend());

        Decision unhealthy = decide("mode=on", "tsc", fast(4_000_000), JNI, BACKWARDS);
        assertEquals(Backend.COARSE, unhealthy.millis().backend());
        assertEquals(8_000_000, unhealthy.millis().lagNs());
        assertEquals(Backend.SYSTEM, unhealthy.nanos().backend());
        assertContains(unhealthy.nanos().reason(), "mode=on", "went backwards");
    }

    @Test
    void containerWithoutSysDecidesOnMeasurementsAlone() {
        Decision d = decide("", "container-no-sys", hpet(4_000_000), JNI, HEALTHY);
        // The clocksource is unknown, but 600 ns is over the threshold; the TSC cannot be vouched for.
        assertEquals(Backend.COARSE, d.millis().backend());
        assertContains(d.millis().reason(), "600 ns", "clocksource unknown", "available_clocksource could not be read");
        assertEquals(Backend.SYSTEM, d.nanos().backend());
        assertContains(d.nanos().reason(), "available_clocksource could not be read");

        Decision quick = decide("", "container-no-sys", fast(4_000_000), JNI, HEALTHY);
        assertFalse(quick.active());
        assertContains(quick.summary(), "clocksource unknown", "24 ns");
    }

    @Test
    void garbageMachineNeverUsesTheTsc() {
        Decision d = decide("mode=on", "garbage", hpet(4_000_000), JNI, HEALTHY);
        assertEquals(Backend.COARSE, d.millis().backend());
        assertEquals(Backend.SYSTEM, d.nanos().backend());
        assertContains(d.nanos().reason(), "CPU flags could not be read");
    }

    @Test
    void armNeverUsesTheTsc() {
        MachineFacts arm = Fixtures.read("arm64", "aarch64");
        Decision d = MAKER.decide(settings("nanos=tsc"), arm, fast(4_000_000), JNI, HEALTHY);
        assertSane(d);
        assertEquals(Backend.SYSTEM, d.nanos().backend());
        assertContains(d.warnings().get(0), "nanos=tsc cannot be honoured safely: ", "x86_64", "aarch64");
    }

    // ------------------------------------------------------------------ settings

    @Test
    void modeOff() {
        Decision d = decide("mode=off,millis=tsc,nanos=tsc", "hpet-healthy-tsc", hpet(1_000_000), JNI, HEALTHY);
        assertFalse(d.active());
        assertContains(d.millis().reason(), "mode=off");
        assertContains(d.nanos().reason(), "mode=off");
        assertEquals("fastclock: inactive: mode=off", d.summary());
    }

    @Test
    void explicitUnusableNanosTscWarns() {
        Decision d = decide("nanos=tsc", "hpet-tsc-demoted", hpet(4_000_000), JNI, HEALTHY);
        assertEquals(Backend.SYSTEM, d.nanos().backend());
        assertEquals(Collections.singletonList("nanos=tsc cannot be honoured safely: the kernel no longer lists tsc in "
                + "available_clocksource (its watchdog found it unstable); nanoTime stays on the system clock"), d.warnings());
        assertEquals(Backend.COARSE, d.millis().backend());
    }

    @Test
    void explicitNanosTscIsHonouredOnAFastMachine() {
        Decision d = decide("nanos=tsc", "tsc", fast(4_000_000), JNI, HEALTHY);
        assertEquals(Backend.TSC, d.nanos().backend());
        assertEquals(Backend.SYSTEM, d.millis().backend());
        assertContains(d.nanos().reason(), "nanos=tsc was requested");
    }

    @Test
    void explicitNanosCoarse() {
        Decision d = decide("nanos=coarse", "tsc", fast(4_000_000), JNI, HEALTHY);
        assertEquals(Backend.COARSE, d.nanos().backend());
        assertEquals(8_000_000, d.nanos().lagNs());
        assertTrue(d.warnings().contains(
                "nanos=coarse: nanoTime will tick only once per kernel tick (4 ms resolution)"), d.warnings().toString());
        assertContains(d.summary(), "nanoTime -> coarse", "nanoTime ticks every 4 ms");

        Decision noJni = decide("nanos=coarse", "hpet-healthy-tsc", hpet(4_000_000), JNA_ONLY, HEALTHY);
        assertEquals(Backend.SYSTEM, noJni.nanos().backend());
        assertContains(noJni.warnings().toString(), "nanos=coarse cannot be honoured: the native library did not load "
                + "(UnsatisfiedLinkError: noexec /tmp)");
    }

    @Test
    void coarseIsNeverChosenForNanosUnlessNamed() {
        for (String args : Arrays.asList("", "mode=on")) {
            for (TscHealth h : Arrays.asList(HEALTHY, BACKWARDS, TscHealth.notChecked())) {
                Decision d = decide(args, "hpet-tsc-demoted", hpet(1_000_000), JNI, h);
                assertTrue(d.nanos().backend() != Backend.COARSE, d.toString());
            }
        }
    }

    @Test
    void explicitNanosSystem() {
        Decision d = decide("nanos=system", "hpet-healthy-tsc", hpet(4_000_000), JNI, HEALTHY);
        assertEquals(Backend.SYSTEM, d.nanos().backend());
        assertContains(d.nanos().reason(), "nanos=system was requested");
        assertEquals(Backend.TSC, d.millis().backend());
    }

    @Test
    void millisWithOneMsTicksIsCoarse() {
        Decision d = decide("", "hpet-healthy-tsc", hpet(1_000_000), JNI, HEALTHY);
        assertEquals(Backend.COARSE, d.millis().backend());
        assertEquals(2_000_000, d.millis().lagNs());
    }

    @Test
    void millisWithFourMsTicksIsTscIfUsableElseCoarseWithEightMsLag() {
        Decision usable = decide("", "hpet-healthy-tsc", hpet(4_000_000), JNI, HEALTHY);
        assertEquals(Backend.TSC, usable.millis().backend());
        assertEquals(1_000_000, usable.millis().lagNs());
        assertContains(usable.millis().reason(), "the coarse clock ticks only every 4 ms");

        Decision unusable = decide("", "hpet-healthy-tsc", hpet(4_000_000), JNI, BACKWARDS);
        assertEquals(Backend.COARSE, unusable.millis().backend());
        assertEquals(8_000_000, unusable.millis().lagNs());
        assertContains(unusable.millis().reason(), "went backwards", "every 4 ms", "up to 8 ms");
    }

    @Test
    void explicitMillis() {
        Decision coarse = decide("millis=coarse", "tsc", fast(4_000_000), JNI, HEALTHY);
        assertEquals(Backend.COARSE, coarse.millis().backend());
        assertContains(coarse.millis().reason(), "millis=coarse was requested", "up to 8 ms");

        Decision tsc = decide("millis=tsc", "hpet-healthy-tsc", hpet(1_000_000), JNI, HEALTHY);
        assertEquals(Backend.TSC, tsc.millis().backend());

        Decision tscBad = decide("millis=tsc", "hpet-healthy-tsc", hpet(1_000_000), JNI, BACKWARDS);
        assertEquals(Backend.SYSTEM, tscBad.millis().backend());
        assertContains(tscBad.warnings().get(0), "millis=tsc cannot be honoured: ", "went backwards",
                "currentTimeMillis stays on the system clock");

        Decision system = decide("millis=system", "hpet-healthy-tsc", hpet(1_000_000), JNI, HEALTHY);
        assertEquals(Backend.SYSTEM, system.millis().backend());
        assertEquals(Backend.TSC, system.nanos().backend());

        Decision coarseNoJni = decide("millis=coarse", "hpet-healthy-tsc", hpet(4_000_000), JNA_ONLY, HEALTHY);
        assertEquals(Backend.SYSTEM, coarseNoJni.millis().backend());
        assertContains(coarseNoJni.warnings().get(0), "millis=coarse cannot be honoured: the native library did not load");

        Decision coarseUnknownRes = decide("millis=coarse", "hpet-healthy-tsc", hpet(-1), JNI, HEALTHY);
        assertEquals(Backend.SYSTEM, coarseUnknownRes.millis().backend());
        assertContains(coarseUnknownRes.warnings().get(0), "resolution of CLOCK_REALTIME_COARSE is unknown");
    }

    @Test
    void explicitJnaIsHonouredEvenWhenSlowerButSaysSo() {
        Decision d = decide("millis=jna-coarse", "tsc", fast(4_000_000), JNA_ONLY, TscHealth.notChecked());
        assertEquals(Backend.JNA_COARSE, d.millis().backend());
        assertEquals(8_000_000, d.millis().lagNs());
        assertContains(d.warnings().get(0), "millis=jna-coarse is honoured because it was requested", "160 ns", "24 ns");
        Decision none = decide("millis=jna-coarse", "tsc", fast(4_000_000), NO_NATIVE, TscHealth.notChecked());
        assertEquals(Backend.SYSTEM, none.millis().backend());
        assertContains(none.warnings().get(0), "JNA is not available (ClassNotFoundException: com.sun.jna.Native)");
    }

    // ------------------------------------------------------------------ fallbacks and measurements

    @Test
    void jnaIsTheFallbackOnlyWhereItBeatsTheSystemClock() {
        Decision d = decide("", "hpet-healthy-tsc", hpet(4_000_000), JNA_ONLY, TscHealth.notChecked());
        assertEquals(Backend.JNA_COARSE, d.millis().backend());
        assertContains(d.millis().reason(), "160 ns", "600 ns", "native library did not load");
        assertEquals(Backend.SYSTEM, d.nanos().backend());

        Measurements jnaSlow = Measurements.builder().realtimeNs(150).monotonicNs(150).jnaCoarseNs(160)
                .coarseResolutionNs(4_000_000).compiledRealtimeNs(150).compiledMonotonicNs(150).coarseLagNs(4_000_000 * 3 / 4).build();
        Decision slow = decide("", "hpet-healthy-tsc", jnaSlow, JNA_ONLY, TscHealth.notChecked());
        assertEquals(Backend.SYSTEM, slow.millis().backend());
        assertContains(slow.millis().reason(), "not measurably faster (160 ns)");
        assertFalse(slow.active());

        // mode=on does not take JNA when it was measured slower than the system clock.
        Decision on = decide("mode=on", "tsc", fast(4_000_000), JNA_ONLY, TscHealth.notChecked());
        assertEquals(Backend.SYSTEM, on.millis().backend());
        assertContains(on.millis().reason(), "160 ns, no less than the system clock");
    }

    @Test
    void nothingNativeMeansNothingActive() {
        Decision d = decide("", "hpet-healthy-tsc", hpet(4_000_000), NO_NATIVE, TscHealth.notChecked());
        assertFalse(d.active());
        assertContains(d.millis().reason(), "600 ns", "hpet", "UnsatisfiedLinkError", "JNA is not available");
        assertContains(d.summary(), "fastclock: inactive: ", "UnsatisfiedLinkError");
    }

    /**
     * A candidate busy CPUs kept from being timed from compiled Java is not faster where the system
     * clock is cheap enough for a JNI transition to matter; against a system clock that costs 300 ns or
     * more in C it is taken, unconfirmed (activation.busy: "could not measure" is not "slower").
     */
    @Test
    void unmeasuredIsFasterOnlyAgainstADearSystemClockAndUnconfirmed() {
        Measurements cheapish = Measurements.builder().realtimeNs(200).monotonicNs(200)
                .coarseResolutionNs(4_000_000).compiledRealtimeNs(200).compiledMonotonicNs(200).coarseLagNs(4_000_000 * 3 / 4).build();
        Decision d = decide("", "hpet-healthy-tsc", cheapish, JNI, HEALTHY);
        assertFalse(d.active(), d.toString());
        assertContains(d.millis().reason(), "not measurably faster from compiled Java (unmeasured)");
        assertContains(d.nanos().reason(), "not measurably faster from compiled Java (unmeasured)");

        Measurements dear = Measurements.builder().realtimeNs(600).monotonicNs(600)
                .coarseResolutionNs(4_000_000).compiledRealtimeNs(600).compiledMonotonicNs(600).coarseLagNs(4_000_000 * 3 / 4).build();
        Decision taken = decide("", "hpet-healthy-tsc", dear, JNI, HEALTHY);
        assertEquals(Backend.TSC, taken.millis().backend(), taken.toString());
        assertEquals(Backend.TSC, taken.nanos().backend(), taken.toString());
        assertTrue(taken.unconfirmed() && taken.millis().unconfirmed() && taken.nanos().unconfirmed());
        assertContains(taken.summary(), "not yet timed from compiled Java (the CPUs were busy)");
        assertContains(taken.nanos().reason(), "against 600 ns for System.nanoTime timed in C it is taken");

        // Without a usable TSC, the coarse clock for currentTimeMillis the same way; nanoTime stays.
        Decision coarse = decide("", "hpet-tsc-demoted", dear, JNI, TscHealth.notChecked());
        assertEquals(Backend.COARSE, coarse.millis().backend(), coarse.toString());
        assertTrue(coarse.millis().unconfirmed());
        assertEquals(Backend.SYSTEM, coarse.nanos().backend());

        // mode=on takes the TSC anyway, measured or not: nothing to confirm.
        assertFalse(decide("mode=on", "hpet-healthy-tsc", dear, JNI, HEALTHY).unconfirmed());

        // Known slow clocksource but nothing measured: still nothing is "faster".
        Decision none = decide("", "hpet-healthy-tsc", Measurements.none(), JNI, HEALTHY);
        assertFalse(none.active());
        assertContains(none.millis().reason(), "was not measured (clocksource hpet, known to be slow)");

        // Unknown clocksource and nothing measured: not slow.
        Decision blind = decide("", "container-no-sys", Measurements.none(), JNI, HEALTHY);
        assertFalse(blind.active());
        assertContains(blind.millis().reason(), "was not measured and clocksource unknown is not known to be slow");
    }

    @Test
    void thresholdDecidesSlownessOnAnUnremarkableClocksource() {
        Measurements m = Measurements.builder().realtimeNs(150).monotonicNs(150).realtimeCoarseNs(7)
                .tscNs(15).coarseResolutionNs(1_000_000).compiledRealtimeNs(150).compiledMonotonicNs(150).coarseLagNs(1_000_000 * 3 / 4).build();
        Decision slow = decide("", "tsc", m, JNI, HEALTHY);
        assertEquals(Backend.COARSE, slow.millis().backend());
        assertEquals(Backend.TSC, slow.nanos().backend());
        assertContains(slow.nanos().reason(), "150 ns");
        Decision raised = decide("threshold=200", "tsc", m, JNI, HEALTHY);
        assertFalse(raised.active());
        assertContains(raised.millis().reason(), "under the 200 ns threshold");
    }

    @Test
    void tscHealthReasonsInOrder() {
        MachineFacts f = Fixtures.read("hpet-healthy-tsc");
        assertEquals(null, TscRules.blocker(f, JNI, HEALTHY));
        assertContains(TscRules.blocker(f, JNI, TscHealth.notChecked()), "were not run");
        assertContains(TscRules.blocker(f, JNI, new TscHealth(true, false, true, null, true, null)),
                "CPUID does not report an invariant TSC");
        assertContains(TscRules.blocker(f, JNI, new TscHealth(true, true, false, "spread 80 ppm after 5 rounds",
                true, null)), "calibration did not converge (spread 80 ppm after 5 rounds)");
        assertContains(TscRules.blocker(f, JNI, BACKWARDS), "went backwards 3 times");
        // As the probe reports it: calibration is skipped once the cross-CPU check failed, and the
        // reason must be the check that failed, not the calibration that never ran.
        TscHealth backwardsUncalibrated = new TscHealth(true, true, false, "not calibrated: an earlier check failed",
                false, "the TSC went backwards 1 times across 2 CPUs (worst 1000 ticks)");
        assertContains(TscRules.blocker(f, JNI, backwardsUncalibrated),
                "the cross-CPU check failed: the TSC went backwards 1 times");
        // A check that could not run is not a TSC seen going backwards.
        TscHealth notRun = new TscHealth(true, true, false, "not calibrated: an earlier check failed",
                false, "it could not run (errno 22)");
        assertEquals("the cross-CPU check failed: it could not run (errno 22)",
                TscRules.blocker(f, JNI, notRun));
        assertContains(TscRules.blocker(f, JNA_ONLY, HEALTHY), "native library did not load");
        assertContains(TscRules.blocker(Fixtures.read("hpet-healthy-tsc", "aarch64"), JNI, HEALTHY), "x86_64");
    }

    @Test
    void tscChecksWorthRunning() {
        MachineFacts ok = Fixtures.read("hpet-healthy-tsc");
        assertTrue(TscRules.checksWorthRunning(settings(""), ok, JNI));
        assertFalse(TscRules.checksWorthRunning(settings("mode=off"), ok, JNI));
        assertFalse(TscRules.checksWorthRunning(settings("millis=coarse,nanos=system"), ok, JNI));
        assertTrue(TscRules.checksWorthRunning(settings("millis=coarse,nanos=tsc"), ok, JNI));
        assertFalse(TscRules.checksWorthRunning(settings(""), Fixtures.read("hpet-tsc-demoted"), JNI));
        assertFalse(TscRules.checksWorthRunning(settings(""), ok, JNA_ONLY));
    }

    @Test
    void tooCoarseAClockIsRefused() {
        Measurements m = Measurements.builder().realtimeNs(600).monotonicNs(600).realtimeCoarseNs(8)
                .coarseResolutionNs(40_000_000).compiledRealtimeNs(600).compiledMonotonicNs(600).coarseLagNs(40_000_000 * 3 / 4).build();
        Decision d = decide("", "hpet-tsc-demoted", m, JNI, HEALTHY);
        assertEquals(Backend.SYSTEM, d.millis().backend());
        assertContains(d.millis().reason(), "ticks only every 40 ms, coarser than the 10 ms accepted");
    }

    @Test
    void formatting() {
        assertEquals("612 ns", Reasons.ns(612.4));
        assertEquals("8.2 ns", Reasons.ns(8.24));
        assertEquals("8 ns", Reasons.ns(8.01));
        assertEquals("unmeasured", Reasons.ns(Double.NaN));
        assertEquals("4 ms", Reasons.ms(4_000_000));
        assertEquals("3.33 ms", Reasons.ms(3_333_333));
        assertEquals("250 us", Reasons.ms(250_000));
    }

    // ------------------------------------------------------------------ compiled costs and the measured lag

    /**
     * The guest seen in the QEMU lab: on tsc, the system clock timed in C just over the threshold,
     * while from compiled Java the coarse clock through JNI cost twice the system clock.
     */
    static Measurements guestWithSlowJni() {
        return Measurements.builder().realtimeNs(112).monotonicNs(108).compiledRealtimeNs(130).compiledMonotonicNs(128)
                .realtimeCoarseNs(250).monotonicCoarseNs(250).tscNs(260).coarseResolutionNs(4_000_000)
                .coarseLagNs(3_000_000).build();
    }

    @Test
    void autoNeverPicksABackendMeasuredSlowerFromCompiledJava() {
        Decision d = decide("", "tsc", guestWithSlowJni(), JNI, HEALTHY);
        assertFalse(d.active(), d.toString());
        assertEquals(Backend.SYSTEM, d.millis().backend());
        assertContains(d.millis().reason(), "112 ns", "CLOCK_REALTIME_COARSE through JNI was not measurably faster from"
                + " compiled Java (250 ns a read against 130 ns for System.currentTimeMillis)");
        assertEquals(Backend.SYSTEM, d.nanos().backend());
        assertContains(d.nanos().reason(), "the TSC clock was not measurably faster from compiled Java (260 ns a read"
                + " against 128 ns for System.nanoTime)");
        // mode=on takes the best allowed backend even where it is not faster; a named one is honoured with its warning.
        Decision named = decide("millis=coarse", "tsc", guestWithSlowJni(), JNI, HEALTHY);
        assertEquals(Backend.COARSE, named.millis().backend());
        assertContains(String.join(" ", named.warnings()), "millis=coarse is honoured because it was requested",
                "250 ns", "130 ns");
    }

    @Test
    void theComparisonUsesCompiledCostsNotTheCOnes() {
        // In C the coarse read looks cheap (10 ns + a constant for JNI), but compiled Java measured it slower.
        Measurements m = Measurements.builder().realtimeNs(600).monotonicNs(612).compiledRealtimeNs(200)
                .compiledMonotonicNs(210).realtimeCoarseNs(220).tscNs(230).coarseResolutionNs(4_000_000)
                .coarseLagNs(3_000_000).build();
        Decision d = decide("", "hpet-tsc-demoted", m, JNI, HEALTHY);
        assertFalse(d.active(), d.toString());
        Decision cheaper = decide("", "hpet-tsc-demoted", Measurements.builder().realtimeNs(600).monotonicNs(612)
                .compiledRealtimeNs(200).compiledMonotonicNs(210).realtimeCoarseNs(190).coarseResolutionNs(4_000_000)
                .coarseLagNs(3_000_000).build(), JNI, HEALTHY);
        assertEquals(Backend.COARSE, cheaper.millis().backend());
        assertContains(cheaper.millis().reason(), "190 ns a read from compiled Java");
    }

    @Test
    void unmeasuredCompiledSystemCostIsNeverBeaten() {
        Measurements m = Measurements.builder().realtimeNs(600).monotonicNs(612).realtimeCoarseNs(8).tscNs(15)
                .coarseResolutionNs(4_000_000).coarseLagNs(3_000_000).build();
        Decision d = decide("", "hpet-healthy-tsc", m, JNI, HEALTHY);
        assertFalse(d.active(), d.toString());
        assertContains(d.millis().reason(), "System.currentTimeMillis unmeasured");
    }

    @Test
    void theCoarseLagStatedIsTheMeasuredOnePlusATick() {
        // The lab's guest: 4 ms ticks arriving late, the coarse clock 9.8 ms behind.
        Measurements late = Measurements.builder().realtimeNs(600).monotonicNs(612).compiledRealtimeNs(600)
                .compiledMonotonicNs(612).realtimeCoarseNs(8).coarseResolutionNs(4_000_000).coarseLagNs(9_800_000).build();
        Decision d = decide("", "hpet-tsc-demoted", late, JNI, HEALTHY);
        assertEquals(Backend.COARSE, d.millis().backend());
        assertEquals(14_000_000, d.millis().lagNs());
        assertContains(d.millis().reason(), "lags the system clock by up to 14 ms", "measured up to 9.8 ms behind");
        // Never below two ticks.
        Decision onTime = decide("", "hpet-tsc-demoted", hpet(4_000_000), JNI, HEALTHY);
        assertEquals(8_000_000, onTime.millis().lagNs());
    }

    @Test
    void aCoarseClockWhoseMeasuredLagIsOverTheCapIsNotChosen() {
        Measurements wild = Measurements.builder().realtimeNs(600).monotonicNs(612).compiledRealtimeNs(600)
                .compiledMonotonicNs(612).realtimeCoarseNs(8).jnaCoarseNs(160).coarseResolutionNs(4_000_000)
                .coarseLagNs(17_000_000).build();
        Decision d = decide("", "hpet-tsc-demoted", wild, JNI, HEALTHY);
        assertEquals(Backend.SYSTEM, d.millis().backend(), d.toString());
        assertContains(d.millis().reason(), "measured 17 ms behind CLOCK_REALTIME", "21 ms", "over the 20 ms accepted");
        // Named by the user, it is refused the same way: its lag cannot be stated.
        Decision named = decide("millis=coarse", "hpet-tsc-demoted", wild, JNI, HEALTHY);
        assertEquals(Backend.SYSTEM, named.millis().backend());
        assertContains(String.join(" ", named.warnings()), "millis=coarse cannot be honoured", "over the 20 ms accepted");
        // JNA reads the same kernel clock: refused too.
        Decision jna = decide("", "hpet-tsc-demoted", wild, JNA_ONLY, TscHealth.notChecked());
        assertEquals(Backend.SYSTEM, jna.millis().backend());
    }

    @Test
    void autoNeedsTheCoarseLagMeasuredANamedCoarseClockStatesTwoTicks() {
        Measurements unmeasuredLag = Measurements.builder().realtimeNs(600).monotonicNs(612).compiledRealtimeNs(600)
                .compiledMonotonicNs(612).realtimeCoarseNs(8).coarseResolutionNs(4_000_000).build();
        Decision d = decide("", "hpet-tsc-demoted", unmeasuredLag, JNI, HEALTHY);
        assertEquals(Backend.SYSTEM, d.millis().backend());
        assertContains(d.millis().reason(), "lag behind CLOCK_REALTIME was not measured");
        Decision named = decide("millis=coarse", "hpet-tsc-demoted", unmeasuredLag, JNI, HEALTHY);
        assertEquals(Backend.COARSE, named.millis().backend());
        assertEquals(8_000_000, named.millis().lagNs());
        assertContains(named.millis().reason(), "two ticks: its lag was not measured");
    }

    // ------------------------------------------------------------------ every reason the TSC is out (the doctor)

    @Test
    void theDoctorGetsEveryStaticReasonTheKernelsFirst() {
        MachineFacts demoted = Fixtures.read("hpet-tsc-demoted");
        List<String> flags = new java.util.ArrayList<>(demoted.cpuFlags());
        flags.remove("constant_tsc");
        flags.remove("nonstop_tsc");
        MachineFacts guest = new MachineFacts(demoted.kernel(), demoted.currentClocksource(),
                demoted.availableClocksources(), flags, demoted.arch(), demoted.problems());
        List<String> all = TscRules.staticBlockers(guest, JNI);
        assertEquals(2, all.size(), all.toString());
        assertContains(all.get(0), "left tsc out of available_clocksource (hpet acpi_pm)", "watchdog", "uses hpet");
        assertContains(all.get(1), "the CPU lacks constant_tsc (", "nonstop_tsc (");
        // The decision's one reason is still the first in its own order.
        assertContains(TscRules.staticBlocker(guest, JNI), "constant_tsc");

        assertEquals(Collections.singletonList(
                "the kernel left tsc out of available_clocksource (hpet acpi_pm): its clocksource watchdog found the TSC"
                        + " unstable, or the kernel never registered it; the kernel uses hpet"),
                TscRules.staticBlockers(demoted, JNI));
        assertEquals(Collections.emptyList(), TscRules.staticBlockers(Fixtures.read("hpet-healthy-tsc"), JNI));
        assertEquals(2, TscRules.staticBlockers(demoted, NO_NATIVE).size());
        assertEquals(1, TscRules.staticBlockers(Fixtures.read("arm64", "aarch64"), JNI).size());
    }
}
