package io.fastclock.measure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import io.fastclock.clock.NativeClocks;
import org.junit.jupiter.api.Test;

class TscReadChoiceTest {
    private static final int INTEL = NativeClocks.CPU_INTEL | NativeClocks.TSC_RDTSCP;
    private static final int AMD = NativeClocks.CPU_AMD | NativeClocks.TSC_RDTSCP;

    @Test
    void intelOffersRdtscpAndLfenceButNeverMfence() {
        assertEquals(Arrays.asList(TscRead.RDTSCP, TscRead.LFENCE_RDTSC), TscReadChoice.orderedCandidates(INTEL));
    }

    @Test
    void amdOffersLfenceOnlyWithTheCpuidBit() {
        assertEquals(Arrays.asList(TscRead.RDTSCP, TscRead.MFENCE_RDTSC), TscReadChoice.orderedCandidates(AMD));
        assertEquals(Arrays.asList(TscRead.RDTSCP, TscRead.LFENCE_RDTSC, TscRead.MFENCE_RDTSC),
                TscReadChoice.orderedCandidates(AMD | NativeClocks.LFENCE_SERIALIZING));
    }

    @Test
    void theUnorderedReadIsNeverACandidateForNanoTime() {
        for (int flags = 0; flags < 128; flags++) {
            assertFalse(TscReadChoice.orderedCandidates(flags).contains(TscRead.RDTSC), "flags " + flags);
        }
        assertNull(TscRead.RDTSC.orderedBecause(~0));
    }

    @Test
    void anUnknownVendorWithoutRdtscpKeepsTheOldRead() {
        assertEquals(Arrays.asList(TscRead.LFENCE_RDTSC), TscReadChoice.orderedCandidates(0));
        assertEquals(Arrays.asList(TscRead.RDTSCP), TscReadChoice.orderedCandidates(NativeClocks.TSC_RDTSCP));
    }

    @Test
    void picksTheCheapestTimedCandidateAndTheFirstOnATie() {
        List<TscRead> candidates = Arrays.asList(TscRead.RDTSCP, TscRead.LFENCE_RDTSC, TscRead.MFENCE_RDTSC);
        Map<TscRead, Double> costs = new EnumMap<>(TscRead.class);
        costs.put(TscRead.RDTSCP, 18.2);
        costs.put(TscRead.LFENCE_RDTSC, 15.9);
        costs.put(TscRead.MFENCE_RDTSC, 21.0);
        costs.put(TscRead.RDTSC, 7.0); // cheaper, but not a candidate
        assertEquals(TscRead.LFENCE_RDTSC, TscReadChoice.cheapest(candidates, costs));
        costs.put(TscRead.LFENCE_RDTSC, 18.2);
        assertEquals(TscRead.RDTSCP, TscReadChoice.cheapest(candidates, costs));
        costs.put(TscRead.RDTSCP, Double.NaN); // could not be timed
        assertEquals(TscRead.LFENCE_RDTSC, TscReadChoice.cheapest(candidates, costs));
    }
}
