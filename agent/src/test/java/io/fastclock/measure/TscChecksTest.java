package io.fastclock.measure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** How the cross-CPU check's figures (NativeClocks.crossCpuTscCheckBounded's out array) become a verdict. */
class TscChecksTest {
    private static long[] figures(long cpus, long reads, long backwards, long worst, boolean stoppedEarly, long fewestHandovers) {
        return new long[] {cpus, reads, backwards, worst, stoppedEarly ? 1 : 0, fewestHandovers};
    }

    @Test
    void aCompleteCheckThatNeverWentBackwardsPasses() {
        assertNull(TscChecks.crossCpuProblem(figures(2, 10_000, 0, 0, false, 3_000)));
    }

    @Test
    void aCompleteCheckNeedsNoHandoverCount() {
        // fio's check as it always was: every reader made all its reads, in whatever order the lock gave.
        assertNull(TscChecks.crossCpuProblem(figures(2, 10_000, 0, 0, false, 1)));
    }

    @Test
    void aBackwardStepFailsItWhetherOrNotItWasStoppedEarly() {
        String expected = "the TSC went backwards 3 times across 4 CPUs (worst 120 ticks)";
        assertEquals(expected, TscChecks.crossCpuProblem(figures(4, 20_000, 3, 120, false, 5_000)));
        assertEquals(expected, TscChecks.crossCpuProblem(figures(4, 900, 3, 120, true, 10)));
    }

    @Test
    void aCheckStoppedEarlyCountsOnlyWhereEveryCpuWasComparedOftenEnough() {
        assertNull(TscChecks.crossCpuProblem(figures(2, 600, 0, 0, true, TscChecks.CROSS_CPU_MIN_HANDOVERS)));
        assertEquals("it did not finish within its 250 ms (the CPUs were busy): one of 2 CPUs was compared with the others"
                        + " 49 times of the 50 needed",
                TscChecks.crossCpuProblem(figures(2, 5_099, 0, 0, true, TscChecks.CROSS_CPU_MIN_HANDOVERS - 1)));
    }

    @Test
    void aCpuThatNeverReadIsNotTakenOnTrust() {
        assertEquals("it did not finish within its 250 ms (the CPUs were busy): one of 2 CPUs was compared with the others"
                + " 0 times of the 50 needed", TscChecks.crossCpuProblem(figures(2, 5_000, 0, 0, true, 0)));
    }

    @Test
    void onlyACheckStoppedShortOfItsHandoversWithoutABackwardStepIsBusy() {
        assertTrue(TscChecks.cutShortByBusyCpus(figures(2, 5_000, 0, 0, true, 0)));
        assertTrue(TscChecks.cutShortByBusyCpus(figures(2, 5_099, 0, 0, true, TscChecks.CROSS_CPU_MIN_HANDOVERS - 1)));
        assertFalse(TscChecks.cutShortByBusyCpus(figures(2, 600, 0, 0, true, TscChecks.CROSS_CPU_MIN_HANDOVERS)),
                "enough handovers: it counts");
        assertFalse(TscChecks.cutShortByBusyCpus(figures(4, 900, 3, 120, true, 10)), "a backward step is a finding, busy or not");
        assertFalse(TscChecks.cutShortByBusyCpus(figures(2, 10_000, 0, 0, false, 1)), "complete");
    }
}
