package io.fastclock.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fastclock.clock.LagCheckedMillis;
import io.fastclock.runtime.MillisClock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CoarseLagWatchTest {
    private static final long MS = 1_000_000L;

    /** A coarse clock at a fixed epoch ms, read against a reference the test sets. */
    static final class FixedMillis extends MillisClock {
        long millis;

        @Override
        public long currentTimeMillis() {
            return millis;
        }

        @Override
        public String name() {
            return "coarse";
        }
    }

    static final class Lines implements CoarseLagWatch.Listener {
        final List<String> lines = new ArrayList<>();

        @Override
        public void restated(long behindNs, long oldLagNs, long newLagNs) {
            lines.add("restated " + oldLagNs / MS + "->" + newLagNs / MS);
        }

        @Override
        public void movedToSystemClock(long behindNs, long lagNs, long capNs) {
            lines.add("system " + lagNs / MS + " cap " + capNs / MS);
        }
    }

    @Test
    void readsWithinLChangeNothingOneBeyondRestatesOnceBeyondTheCapMovesToTheSystemClockForGood() {
        FixedMillis coarse = new FixedMillis();
        LagCheckedMillis clock = new LagCheckedMillis(coarse);
        long[] reference = {0};
        Lines lines = new Lines();
        CoarseLagWatch watch = new CoarseLagWatch(clock, () -> reference[0], 4 * MS, 11 * MS, lines);

        coarse.millis = 1_000_000;
        reference[0] = coarse.millis * MS + 999_999 + 10 * MS; // 10 ms behind the end of its millisecond
        assertTrue(watch.sample());
        assertEquals(11 * MS, watch.statedNs());
        assertTrue(lines.lines.isEmpty());

        reference[0] = coarse.millis * MS + 999_999 + 13 * MS; // 13 ms behind: L becomes 17 ms
        assertTrue(watch.sample());
        assertEquals(17 * MS, watch.statedNs());
        assertEquals("[restated 11->17]", lines.lines.toString());
        assertEquals("coarse", clock.name());
        assertEquals(coarse.millis, clock.currentTimeMillis());

        reference[0] = coarse.millis * MS + 999_999 + 17 * MS; // within the restated L: nothing
        assertTrue(watch.sample());
        assertEquals(1, lines.lines.size());

        reference[0] = coarse.millis * MS + 999_999 + 17 * MS + 1; // 21 ms with a tick: over the 20 ms cap
        assertFalse(watch.sample());
        assertEquals("[restated 11->17, system 17 cap 20]", lines.lines.toString());
        assertTrue(clock.onSystemClock());
        assertEquals("system", clock.name());
        long before = System.currentTimeMillis();
        long read = clock.currentTimeMillis();
        assertTrue(read >= before && read <= System.currentTimeMillis(), "reads the system clock: " + read);
    }

    @Test
    void aFailedReferenceReadIsSkipped() {
        FixedMillis coarse = new FixedMillis();
        Lines lines = new Lines();
        CoarseLagWatch watch = new CoarseLagWatch(new LagCheckedMillis(coarse), () -> -22, 4 * MS, 8 * MS, lines);
        assertTrue(watch.sample());
        assertTrue(lines.lines.isEmpty());
    }
}
