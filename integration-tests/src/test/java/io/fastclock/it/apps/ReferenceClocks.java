package io.fastclock.it.apps;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * The JDK's own clocks, reached through method handles: call-site rewriting cannot see
 * findStatic, so these stay the reference even in a rewritten class.
 */
public final class ReferenceClocks {
    private static final MethodHandle MILLIS;
    private static final MethodHandle NANOS;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            MILLIS = lookup.findStatic(System.class, "currentTimeMillis", MethodType.methodType(long.class));
            NANOS = lookup.findStatic(System.class, "nanoTime", MethodType.methodType(long.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private ReferenceClocks() {}

    public static long millis() {
        try {
            return (long) MILLIS.invokeExact();
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    public static long nanos() {
        try {
            return (long) NANOS.invokeExact();
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** Which backends the agent installed, asked of the boot-loader runtime by reflection. */
    public static String backends() {
        try {
            Class<?> fastClock = Class.forName("io.fastclock.runtime.FastClock", true, null);
            return "millis=" + fastClock.getMethod("millisBackend").invoke(null)
                    + " nanos=" + fastClock.getMethod("nanosBackend").invoke(null);
        } catch (ClassNotFoundException e) {
            return "none";
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * {reference midpoint, fast} from the narrowest of 200 windows. The System.nanoTime() call here
     * is a call site like any other: with the agent it is rewritten, so "fast" is fastclock's.
     */
    public static long[] narrowSample() {
        long bestWindow = Long.MAX_VALUE;
        long[] best = new long[2];
        for (int i = 0; i < 200; i++) {
            long before = nanos();
            long fast = System.nanoTime();
            long after = nanos();
            if (after - before < bestWindow) {
                bestWindow = after - before;
                best[0] = before + (after - before) / 2;
                best[1] = fast;
            }
        }
        return best;
    }
}
