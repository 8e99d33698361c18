package io.fastclock.clock;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fastclock.runtime.EpochClock;
import org.junit.jupiter.api.Test;

/** The one rule of every epoch-nanos clock: its time in java.time's shape, or, unreadable, the other clock's. */
class EpochNanosClockTest {
    static final class Fixed extends EpochNanosClock {
        long answer;

        Fixed(EpochClock otherwise) {
            super(otherwise);
        }

        @Override
        long epochNanos() {
            return answer;
        }

        @Override
        public String name() {
            return "fixed";
        }
    }

    static final EpochClock JDK = new EpochClock() {
        @Override
        public long nanoTimeAdjustment(long offsetSeconds) {
            return 42;
        }

        @Override
        public String name() {
            return "system";
        }
    };

    @Test
    void readableTimeIsAdjustedUnreadableGoesToTheOtherClock() {
        Fixed clock = new Fixed(JDK);
        clock.answer = 1_700_000_000_123_456_789L;
        assertEquals(NanoTimeAdjustment.of(clock.answer, 1_700_000_000L), clock.nanoTimeAdjustment(1_700_000_000L));
        assertEquals(123_456_789L, clock.nanoTimeAdjustment(1_700_000_000L));
        clock.answer = EpochNanosClock.UNREADABLE;
        assertEquals(42, clock.nanoTimeAdjustment(1_700_000_000L));
        assertEquals(TscClock.FALLEN_BACK, EpochNanosClock.UNREADABLE, "the TSC clock's fallback reads as unreadable");
    }
}
