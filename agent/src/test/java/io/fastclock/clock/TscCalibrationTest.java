package io.fastclock.clock;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class TscCalibrationTest {
    /** Three ticks per ns of System.nanoTime, read with no window: a counter calibration can trust. */
    static final class NanoTimeTicks extends TickSource {
        @Override
        public long ticks() {
            return System.nanoTime() * 3;
        }

        @Override
        public int sample(long[] out) {
            long now = System.nanoTime();
            out[0] = now * 3;
            out[1] = now;
            out[2] = 0;
            out[3] = now + 1_000_000_000L;
            return 0;
        }
    }

    /**
     * Calibration pauses on the application's thread (premain, agentmain): an interrupt that
     * arrived before or during it belongs to the application and is still set when it returns.
     */
    @Test
    void anInterruptOfTheCallingThreadIsKeptForTheApplication() {
        Thread.currentThread().interrupt();
        TscCalibration c;
        try {
            c = TscCalibration.run(new NanoTimeTicks(), 1_000_000L);
        } finally {
            assertTrue(Thread.interrupted(), "the application's interrupt was lost");
        }
        assertTrue(c.converged, c.problem);
    }
}
