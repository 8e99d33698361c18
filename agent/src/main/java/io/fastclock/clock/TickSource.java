package io.fastclock.clock;

/** Where the TSC clock gets its ticks and its (ticks, CLOCK_MONOTONIC, CLOCK_REALTIME) samples. */
public abstract class TickSource {
    /**
     * A read of the tick counter. The sources for nanoTime are ordered (the read waits for the loads
     * before it); {@link #unorderedRdtsc()} is not, and serves currentTimeMillis only.
     */
    public abstract long ticks();

    /**
     * Fills out = {ticks, CLOCK_MONOTONIC ns, window ticks, CLOCK_REALTIME ns} from the narrowest of
     * several read windows. Returns 0, or a negative errno.
     */
    public int sample(long[] out) {
        return NativeClocks.sampleTsc(SAMPLE_TRIES, out);
    }

    /** The clock the TSC clock falls back to: System.nanoTime (a test source supplies its own). */
    public long systemNanos() {
        return System.nanoTime();
    }

    /** The clock TSC millis fall back to: System.currentTimeMillis. */
    public long systemMillis() {
        return System.currentTimeMillis();
    }

    /** The CPU's time-stamp counter through JNI: rdtscp, else lfence; rdtsc. */
    public static TickSource nativeTsc(boolean rdtscp) {
        return rdtscp ? rdtscp() : lfenceRdtsc();
    }

    public static TickSource rdtscp() {
        return new Rdtscp();
    }

    public static TickSource lfenceRdtsc() {
        return new LfenceRdtsc();
    }

    public static TickSource mfenceRdtsc() {
        return new MfenceRdtsc();
    }

    /** Not ordered with earlier loads: never for nanoTime (see docs/DESIGN-NOTES.md). */
    public static TickSource unorderedRdtsc() {
        return new Rdtsc();
    }

    static final int SAMPLE_TRIES = 7;

    static final class Rdtscp extends TickSource {
        @Override
        public long ticks() {
            return NativeClocks.rdtscp();
        }
    }

    static final class LfenceRdtsc extends TickSource {
        @Override
        public long ticks() {
            return NativeClocks.lfenceRdtsc();
        }
    }

    static final class MfenceRdtsc extends TickSource {
        @Override
        public long ticks() {
            return NativeClocks.mfenceRdtsc();
        }
    }

    static final class Rdtsc extends TickSource {
        @Override
        public long ticks() {
            return NativeClocks.rdtsc();
        }
    }
}
