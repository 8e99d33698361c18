package io.fastclock.it.apps;

import com.sun.jna.Function;
import com.sun.jna.NativeLibrary;

/**
 * Native reads no rewriting can touch (JNA calls are not call sites of the JDK's clocks, and the
 * agent never changes JNA): clock_gettime looked up in the process's global scope, so that the
 * slow-clocksource simulator, when preloaded, serves it (its wall-clock steps included), and the
 * simulator's running count of fine reads in counted threads (slowclock_counted_reads).
 * The application's classpath needs JNA; on JDK 24+ run with --enable-native-access=ALL-UNNAMED.
 */
public final class JnaClocks {
    static final int CLOCK_REALTIME = 0;
    static final int CLOCK_MONOTONIC = 1;
    static final int CLOCK_REALTIME_COARSE = 5;
    private static final Function CLOCK_GETTIME = NativeLibrary.getProcess().getFunction("clock_gettime");
    private static Function countedReads;

    private JnaClocks() {}

    /** CLOCK_REALTIME in ns since the epoch. */
    public static long realtimeNanos() {
        return read(CLOCK_REALTIME);
    }

    /**
     * The kernel's CLOCK_REALTIME_COARSE in ns since the epoch (held back as the simulator's
     * SLOWCLOCK_COARSE_LAG says, as the agent's coarse clock is): each distinct value is one tick.
     */
    public static long realtimeCoarseNanos() {
        return read(CLOCK_REALTIME_COARSE);
    }

    /** CLOCK_MONOTONIC in ns, System.nanoTime()'s origin. */
    public static long monotonicNanos() {
        return read(CLOCK_MONOTONIC);
    }

    private static long read(int clock) {
        long[] timespec = new long[2];
        int rc = CLOCK_GETTIME.invokeInt(new Object[] {clock, timespec});
        if (rc != 0) {
            throw new IllegalStateException("clock_gettime(" + clock + ") returned " + rc);
        }
        return timespec[0] * 1_000_000_000L + timespec[1];
    }

    /** The simulator's count of fine reads made so far in counted threads (CountedWindow). */
    public static long countedSlowReads() {
        if (countedReads == null) {
            try {
                countedReads = NativeLibrary.getProcess().getFunction("slowclock_counted_reads");
            } catch (UnsatisfiedLinkError e) {
                throw new IllegalStateException("the slow-clocksource simulator is not preloaded", e);
            }
        }
        return countedReads.invokeLong(new Object[0]);
    }
}
