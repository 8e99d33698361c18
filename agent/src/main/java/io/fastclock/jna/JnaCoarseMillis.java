package io.fastclock.jna;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import io.fastclock.runtime.MillisClock;

/**
 * CLOCK_REALTIME_COARSE through JNA direct mapping: the fallback where libfastclock cannot load.
 *
 * <p>Never loaded from the agent jar's class path: the build moves this class's bytes to
 * META-INF/fastclock/jna/classes/ and {@code io.fastclock.nativelib.JnaLoader} defines it in a private
 * class loader together with the nested JNA jar, so that it links against that private JNA and never
 * against (or in place of) an application's own. The agent reaches it only as a {@link MillisClock} and,
 * for measuring, through reflection on the static methods below.
 *
 * <p>{@code struct timespec} is two 64-bit words on LP64 Linux (x86_64, aarch64), the only platforms
 * the loader accepts, so a {@code long[2]} stands in for it and no Structure is needed.
 */
public final class JnaCoarseMillis extends MillisClock {
    static final int CLOCK_REALTIME = 0;
    static final int CLOCK_MONOTONIC = 1;
    static final int CLOCK_REALTIME_COARSE = 5;

    static {
        // The process's own symbols (libc is always loaded): no library search, no file lookups.
        Native.register(JnaCoarseMillis.class, NativeLibrary.getProcess());
    }

    private static native int clock_gettime(int clockId, long[] timespec);

    private static native int clock_getres(int clockId, long[] timespec);

    @Override
    public long currentTimeMillis() {
        long[] ts = new long[2];
        if (clock_gettime(CLOCK_REALTIME_COARSE, ts) != 0) {
            return System.currentTimeMillis(); // cannot happen for a valid clock id; never lie
        }
        return ts[0] * 1000L + ts[1] / 1_000_000L;
    }

    @Override
    public String name() {
        // Written out: this loader sees the runtime and JNA only. BackendTest holds it to BackendNames.
        return "jna-coarse";
    }

    /** CLOCK_REALTIME_COARSE in ns since the epoch, or -1 (java.time's epoch read under instant=coarse). */
    public static long realtimeCoarseNanos() {
        long[] ts = new long[2];
        return clock_gettime(CLOCK_REALTIME_COARSE, ts) == 0 ? ts[0] * 1_000_000_000L + ts[1] : -1;
    }

    /** clock_getres(CLOCK_REALTIME_COARSE) in ns, or -1. */
    public static long coarseResolutionNanos() {
        long[] ts = new long[2];
        return clock_getres(CLOCK_REALTIME_COARSE, ts) == 0 ? ts[0] * 1_000_000_000L + ts[1] : -1;
    }

    /**
     * Best ns per call of clock_gettime(clockId) through JNA over a few batches, timed with
     * System.nanoTime around each batch (the loop runs interpreted at agent start-up, so this is an
     * upper bound on the compiled cost). NaN if the clock cannot be read.
     */
    public static double nanosPerCall(int clockId, int batches, int callsPerBatch) {
        long[] ts = new long[2];
        double best = Double.NaN;
        for (int b = 0; b < batches; b++) {
            long start = System.nanoTime();
            for (int i = 0; i < callsPerBatch; i++) {
                if (clock_gettime(clockId, ts) != 0) {
                    return Double.NaN;
                }
            }
            double perCall = (double) (System.nanoTime() - start) / callsPerBatch;
            if (Double.isNaN(best) || perCall < best) {
                best = perCall;
            }
        }
        return best;
    }
}
