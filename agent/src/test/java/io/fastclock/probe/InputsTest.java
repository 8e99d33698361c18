package io.fastclock.probe;

import io.fastclock.config.Backend;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class InputsTest {

    @Test
    void measurementsTreatFailedReadingsAsUnmeasured() {
        Measurements m = new Measurements(-22, Double.POSITIVE_INFINITY, 8, Double.NaN, 15, 160, 0,
                Double.NaN, Double.NaN, Measurements.UNKNOWN_LAG);
        assertTrue(Double.isNaN(m.realtimeNs()));
        assertTrue(Double.isNaN(m.monotonicNs()));
        assertEquals(8, m.realtimeCoarseNs());
        assertTrue(Double.isNaN(m.monotonicCoarseNs()));
        assertEquals(15, m.tscNs());
        assertEquals(160, m.jnaCoarseNs());
        assertEquals(-1, m.coarseResolutionNs());
        Measurements none = Measurements.none();
        assertTrue(Double.isNaN(none.tscNs()));
        assertEquals(-1, none.coarseResolutionNs());
        assertEquals(4_000_000, Measurements.builder().coarseResolutionNs(4_000_000).build().coarseResolutionNs());
    }

    @Test
    void nativeStatusDropsProblemsOfWhatWorks() {
        NativeStatus n = new NativeStatus(true, "stale", false, "no jna");
        assertTrue(n.jniLoaded());
        assertNull(n.jniProblem());
        assertFalse(n.jnaAvailable());
        assertEquals("no jna", n.jnaProblem());
    }

    @Test
    void tscHealthNotCheckedIsNeverHealthy() {
        TscHealth h = new TscHealth(false, true, true, null, true, null);
        assertFalse(h.checked());
        assertFalse(h.cpuidInvariant());
        assertFalse(h.calibrated());
        assertFalse(h.crossCpuOk());
        assertTrue(TscHealth.healthy().crossCpuOk());
        assertEquals("TSC went backwards", new TscHealth(true, true, true, null, false, "TSC went backwards").crossCpuProblem());
    }

    @Test
    void backendNames() {
        assertEquals("system", Backend.SYSTEM.settingName());
        assertEquals("coarse", Backend.COARSE.settingName());
        assertEquals("tsc", Backend.TSC.settingName());
        assertEquals("jna-coarse", Backend.JNA_COARSE.settingName());
    }

    @Test
    void factsAreImmutable() {
        List<String> flags = new ArrayList<>(Arrays.asList("constant_tsc"));
        MachineFacts f = new MachineFacts("k", "tsc", Arrays.asList("tsc"), flags, "x86_64", null);
        flags.add("nonstop_tsc");
        assertFalse(f.hasFlag("nonstop_tsc"));
        assertTrue(f.isX86_64());
        assertThrows(UnsupportedOperationException.class, () -> f.cpuFlags().add("x"));
        assertEquals(Collections.emptyList(), f.problems());
    }

    @Test
    void knownSlowClocksources() {
        for (String cs : Arrays.asList("hpet", "acpi_pm", "xen", "jiffies", "refined-jiffies", "pit")) {
            assertTrue(new MachineFacts(null, cs, null, null, "amd64", null).clocksourceKnownSlow(), cs);
        }
        for (String cs : Arrays.asList("tsc", "kvm-clock", "hyperv_clocksource_tsc_page", "arch_sys_counter")) {
            assertFalse(new MachineFacts(null, cs, null, null, "amd64", null).clocksourceKnownSlow(), cs);
        }
        assertFalse(new MachineFacts(null, null, null, null, "amd64", null).clocksourceKnownSlow());
    }
}
