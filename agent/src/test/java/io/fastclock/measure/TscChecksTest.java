package io.fastclock.measure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** How the cross-CPU check's figures (NativeClocks.crossCpuTscCheck's out array) become a verdict. */
class TscChecksTest {
    private static long[] figures(long cpus, long reads, long backwards, long worst, boolean cutShort, long fewest) {
        return new long[] {cpus, reads, backwards, worst, cutShort ? 1 : 0, fewest};
    }

    @Test
    void aCompleteCheckThatNeverWentBackwardsPasses() {
        assertNull(TscChecks.crossCpuProblem(figures(2, 10_000, 0, 0, false, 5_000)));
    }

    @Test
    void aBackwardStepFailsItWhetherOrNotTheBudgetCutItShort() {
        String expected = "the TSC went backwards 3 times across 4 CPUs (worst 120 ticks)";
        assertEquals(expected, TscChecks.crossCpuProblem(figures(4, 20_000, 3, 120, false, 5_000)));
        assertEquals(expected, TscChecks.crossCpuProblem(figures(4, 900, 3, 120, true, 10)));
    }

    @Test
    void aCheckCutShortCountsOnlyWhereEveryCpuMadeEnoughReads() {
        assertNull(TscChecks.crossCpuProblem(figures(2, 600, 0, 0, true, TscChecks.CROSS_CPU_MIN_READS)));
        assertEquals("it did not finish within its 250 ms (the CPUs were busy): one of 2 CPUs made 99 of the 100 reads needed",
                TscChecks.crossCpuProblem(figures(2, 5_099, 0, 0, true, TscChecks.CROSS_CPU_MIN_READS - 1)));
    }

    @Test
    void aCpuThatNeverReadIsNotTakenOnTrust() {
        assertEquals("it did not finish within its 250 ms (the CPUs were busy): one of 2 CPUs made 0 of the 100 reads needed",
                TscChecks.crossCpuProblem(figures(2, 5_000, 0, 0, true, 0)));
    }
}
