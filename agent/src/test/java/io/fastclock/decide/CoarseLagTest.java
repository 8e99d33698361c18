package io.fastclock.decide;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class CoarseLagTest {
    private static final long MS = 1_000_000L;
    private static final long TICK_4MS = 4 * MS;

    @Test
    void statedIsTheMeasuredWorstPlusATickRoundedUpNeverBelowTwoTicks() {
        assertEquals(8 * MS, CoarseLag.statedNs(TICK_4MS, 3 * MS));
        assertEquals(8 * MS, CoarseLag.statedNs(TICK_4MS, -200_000));
        assertEquals(8 * MS, CoarseLag.statedNs(TICK_4MS, 4 * MS));
        assertEquals(9 * MS, CoarseLag.statedNs(TICK_4MS, 4 * MS + 1));
        // The lab's guest: 9.8 ms behind with 4 ms ticks.
        assertEquals(14 * MS, CoarseLag.statedNs(TICK_4MS, 9_800_000));
        assertEquals(2 * MS, CoarseLag.statedNs(MS, 400_000));
        assertEquals(-1, CoarseLag.statedNs(-1, MS));
        assertEquals(-1, CoarseLag.statedNs(40 * MS, MS));
    }

    @Test
    void theCapIsFiveTicksAndNeverBelowTenMs() {
        assertEquals(20 * MS, CoarseLag.capNs(TICK_4MS));
        assertEquals(10 * MS, CoarseLag.capNs(MS));
        assertEquals(50 * MS, CoarseLag.capNs(10 * MS));
        assertTrue(CoarseLag.withinCap(TICK_4MS, 20 * MS));
        assertFalse(CoarseLag.withinCap(TICK_4MS, 21 * MS));
        assertFalse(CoarseLag.withinCap(-1, 2 * MS));
    }

    @Test
    void aReadWithinLKeepsItOneBeyondRestatesItUpToTheCapThenNone() {
        assertEquals(8 * MS, CoarseLag.afterRead(TICK_4MS, 8 * MS, 8 * MS));
        assertEquals(8 * MS, CoarseLag.afterRead(TICK_4MS, 8 * MS, -3 * MS));
        assertEquals(14 * MS, CoarseLag.afterRead(TICK_4MS, 8 * MS, 9_800_000));
        assertEquals(20 * MS, CoarseLag.afterRead(TICK_4MS, 8 * MS, 16 * MS));
        assertEquals(CoarseLag.NONE, CoarseLag.afterRead(TICK_4MS, 8 * MS, 16 * MS + 1));
        assertEquals(CoarseLag.NONE, CoarseLag.afterRead(TICK_4MS, 14 * MS, 30 * MS));
    }
}
