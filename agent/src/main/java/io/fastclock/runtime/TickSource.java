package io.fastclock.runtime;

/** Where the TSC clock gets its ticks and its (ticks, CLOCK_MONOTONIC, CLOCK_REALTIME) samples. */
public abstract class TickSource {
    /** An ordered read of the tick counter. */
    public abstract long ticks();

    /**
     * Fills out = {ticks, CLOCK_MONOTONIC ns, window ticks, CLOCK_REALTIME ns} from the narrowest of
     * several read windows. Returns 0, or a negative errno.
     */
    public abstract int sample(long[] out);

    /** The clock the TSC clock falls back to: System.nanoTime (a test source supplies its own). */
    public long systemNanos() {
        return System.nanoTime();
    }

    /** The clock TSC millis fall back to: System.currentTimeMillis. */
    public long systemMillis() {
        return System.currentTimeMillis();
    }

    /** The CPU's time-stamp counter through JNI. */
    public static TickSource nativeTsc(boolean rdtscp) {
        return rdtscp ? new Rdtscp() : new LfenceRdtsc();
    }

    static final int SAMPLE_TRIES = 7;

    static final class Rdtscp extends TickSource {
        @Override
        public long ticks() {
            return NativeClocks.rdtscp();
        }

        @Override
        public int sample(long[] out) {
            return NativeClocks.sampleTsc(SAMPLE_TRIES, out);
        }
    }

    static final class LfenceRdtsc extends TickSource {
        @Override
        public long ticks() {
            return NativeClocks.lfenceRdtsc();
        }

        @Override
        public int sample(long[] out) {
            return NativeClocks.sampleTsc(SAMPLE_TRIES, out);
        }
    }
}
