package io.fastclock.measure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;

/** The lag arithmetic on made-up clocks: no real time, no timing thresholds. */
class MillisLagMeterTest {
    private static final long MS = 1_000_000L;

    /** A made-up CLOCK_REALTIME that advances by a fixed step at every read. */
    static final class FakeRealtime implements LongSupplier {
        long now;
        final long step;

        FakeRealtime(long start, long step) {
            this.now = start;
            this.step = step;
        }

        @Override
        public long getAsLong() {
            long v = now;
            now += step;
            return v;
        }
    }

    /** A loop bound that ends after a fixed number of checks, whatever the real time. */
    static LongSupplier checks(int n) {
        long[] count = {0};
        return () -> count[0]++ < n ? 0 : Long.MAX_VALUE / 2;
    }

    private static MillisLagMeter.Result one(LongSupplier backend, FakeRealtime ref) {
        Map<String, LongSupplier> m = new LinkedHashMap<>();
        m.put("x", backend);
        return MillisLagMeter.measure(m, ref, checks(20_000), 1).get(0);
    }

    @Test
    void aClockThatTruncatesExactlyIsNeitherBehindNorAhead() {
        FakeRealtime ref = new FakeRealtime(1_700_000_000_000L * MS, 37_123);
        // The backend reads the instant between the two reference reads.
        MillisLagMeter.Result r = one(() -> Math.floorDiv(ref.now, MS), ref);
        assertTrue(r.reads > 0);
        assertTrue(r.worstBehindNs <= 0, r.toString());
        assertTrue(r.worstAheadNs <= 0, r.toString());
        assertTrue(r.within(0), r.toString());
    }

    @Test
    void aClockFourMillisecondsLateIsBehindByAboutFourAndWithinAnEightMillisecondLag() {
        FakeRealtime ref = new FakeRealtime(1_700_000_000_000L * MS, 37_123);
        MillisLagMeter.Result r = one(() -> Math.floorDiv(ref.now - 4 * MS, MS), ref);
        assertTrue(r.worstBehindNs <= 4 * MS && r.worstBehindNs > 3 * MS, r.toString());
        assertTrue(r.worstAheadNs < -3 * MS, r.toString());
        assertTrue(r.within(8 * MS), r.toString());
        assertFalse(r.within(3 * MS), r.toString());
    }

    @Test
    void aClockAheadByMoreThanOneMillisecondBreaksTheContract() {
        FakeRealtime ref = new FakeRealtime(1_700_000_000_000L * MS, 37_123);
        MillisLagMeter.Result r = one(() -> Math.floorDiv(ref.now + 1_500_000, MS), ref);
        assertTrue(r.worstAheadNs > MS, r.toString());
        assertFalse(r.within(8 * MS), r.toString());
    }

    @Test
    void behindMatchesTheContractsMillisecondCheck() {
        // floor(reference / 1 ms) - b <= L ms  exactly when  behindNs(reference, b) <= L.
        long base = 1_700_000_000_123L * MS;
        for (long lagMs = 0; lagMs <= 10; lagMs++) {
            for (long r = base; r < base + 3 * MS; r += 99_991) {
                for (long b = r / MS - 12; b <= r / MS + 2; b++) {
                    boolean contract = r / MS - b <= lagMs;
                    assertEquals(contract, MillisLagMeter.behindNs(r, b) <= lagMs * MS, "r=" + r + " b=" + b + " L=" + lagMs);
                }
            }
        }
    }

    @Test
    void aheadWithinOneMillisecondImpliesTheContractsMillisecondCheck() {
        long base = 1_700_000_000_123L * MS;
        for (long r = base; r < base + 3 * MS; r += 99_991) {
            for (long b = r / MS - 2; b <= r / MS + 3; b++) {
                if (MillisLagMeter.aheadNs(b, r) <= MS) {
                    assertTrue(b - r / MS <= 1, "r=" + r + " b=" + b);
                }
            }
        }
    }

    @Test
    void failedReferenceReadsAreDropped() {
        long[] calls = {0};
        LongSupplier ref = () -> calls[0]++ % 4 == 0 ? -22 : 1_700_000_000_000L * MS + calls[0] * 1000;
        Map<String, LongSupplier> m = new LinkedHashMap<>();
        m.put("x", () -> 1_700_000_000_000L);
        MillisLagMeter.Result r = MillisLagMeter.measure(m, ref, checks(100), 1).get(0);
        assertTrue(r.reads > 0 && r.reads < 100, r.toString());
        assertTrue(r.worstBehindNs < MS, r.toString());
    }

    @Test
    void backendsTakeTurnsAndKeepTheirOrder() {
        FakeRealtime ref = new FakeRealtime(1_700_000_000_000L * MS, 10_000);
        Map<String, LongSupplier> m = new LinkedHashMap<>();
        m.put("late", () -> Math.floorDiv(ref.now - 2 * MS, MS));
        m.put("exact", () -> Math.floorDiv(ref.now, MS));
        List<MillisLagMeter.Result> rs = MillisLagMeter.measure(m, ref, checks(1000), 1);
        assertEquals("late", rs.get(0).backend);
        assertEquals("exact", rs.get(1).backend);
        assertEquals(rs.get(0).reads, rs.get(1).reads);
        assertTrue(rs.get(0).worstBehindNs > MS && rs.get(1).worstBehindNs <= 0, rs.toString());
    }

    @Test
    void noReadsIsNeverWithinTheContract() {
        Map<String, LongSupplier> m = new LinkedHashMap<>();
        m.put("x", () -> 0);
        MillisLagMeter.Result r = MillisLagMeter.measure(m, () -> -1, checks(10), 1).get(0);
        assertEquals(0, r.reads);
        assertFalse(r.within(8 * MS));
    }
}
