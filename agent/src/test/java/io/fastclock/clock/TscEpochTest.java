package io.fastclock.clock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fastclock.runtime.EpochClock;
import org.junit.jupiter.api.Test;

/** java.time's epoch read from the TSC clock, against a simulated counter, and the JDK's arithmetic. */
class TscEpochTest {
    private static final long SEC = 1_000_000_000L;

    /** A stand-in for VM.getNanoTimeAdjustment that records that it was asked. */
    static long systemCalls;

    static long fakeSystemAdjustment(long offset) {
        systemCalls++;
        return 42;
    }

    private static EpochClock fakeSystem() {
        return new EpochClock() {
            @Override
            public long nanoTimeAdjustment(long offsetSeconds) {
                return fakeSystemAdjustment(offsetSeconds);
            }

            @Override
            public String name() {
                return "system";
            }
        };
    }

    @Test
    void adjustmentFollowsHotSpotArithmetic() {
        long epoch = 1_700_000_000L * SEC + 123_456_789L;
        assertEquals(1024 * SEC + 123_456_789L, NanoTimeAdjustment.of(epoch, 1_700_000_000L - 1024));
        assertEquals(123_456_789L, NanoTimeAdjustment.of(epoch, 1_700_000_000L));
        // an offset in the future: a negative adjustment, as HotSpot returns it
        assertEquals(-SEC + 123_456_789L, NanoTimeAdjustment.of(epoch, 1_700_000_001L));
        // 2^32 seconds or more either way: the sentinel the caller re-seeds on
        assertEquals(-1, NanoTimeAdjustment.of(epoch, 1_700_000_000L - (1L << 32)));
        assertEquals(-1, NanoTimeAdjustment.of(epoch, 1_700_000_000L + (1L << 32)));
        assertTrue(NanoTimeAdjustment.of(epoch, 1_700_000_000L - (1L << 32) + 1) > 0);
        // before 1970: floor division keeps the nanos part in [0, 1e9)
        assertEquals(SEC - 1, NanoTimeAdjustment.of(-1, -1));
    }

    @Test
    void epochIsTscNanosPlusRealtimeOffsetAndAgreesWithMillis() throws Exception {
        TscClockTest.ManualTicks source = new TscClockTest.ManualTicks(0.4);
        TscClock clock = TscClockTest.newClock(source);
        TscEpoch epoch = new TscEpoch(clock, fakeSystem());
        for (int i = 0; i < 50; i++) {
            source.advanceNanos(3_700_000L);
            long nanos = clock.nanoTime();
            long epochNanos = clock.epochNanos();
            assertEquals(nanos + clock.realtimeOffsetNanos(), epochNanos);
            assertEquals(epochNanos / 1_000_000L, clock.currentTimeMillis());
            long offset = epochNanos / SEC - 1024;
            assertEquals(epochNanos - offset * SEC, epoch.nanoTimeAdjustment(offset));
        }
    }

    @Test
    void afterAFallbackTheJdksOwnReadAnswers() throws Exception {
        TscClockTest.ManualTicks source = new TscClockTest.ManualTicks(0.4);
        TscClock clock = TscClockTest.newClock(source);
        TscEpoch epoch = new TscEpoch(clock, fakeSystem());
        systemCalls = 0;
        epoch.nanoTimeAdjustment(0);
        assertEquals(0, systemCalls);
        clock.fallBack("test");
        assertEquals(TscClock.FALLEN_BACK, clock.epochNanos());
        assertEquals(42, epoch.nanoTimeAdjustment(0));
        assertEquals(1, systemCalls);
    }
}
