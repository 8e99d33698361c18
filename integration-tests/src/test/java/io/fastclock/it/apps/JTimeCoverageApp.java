package io.fastclock.it.apps;

import java.io.InputStream;
import java.lang.reflect.Method;
import java.util.List;

/**
 * Counts, per java.time / legacy date entry point (JTimeOps), the slow-clocksource reads that N
 * operations make in the simulator's counted window, called from application code and from a copy
 * of JTimeOps defined by a loader whose parent is the bootstrap loader. Prints, per entry point:
 * {@code app.NAME=reads}, {@code isolated.NAME=reads} and {@code value.NAME=ok|WRONG ...}; and
 * {@code ops}, {@code entryPoints}, {@code backends}, {@code epoch}.
 *
 * <p>args: ops-per-entry-point [app|isolated|both] [lag-ms]: an instant's value must lie within
 * [reference - lag, reference + 1 ms] (millis.lag; 1 ms, epoch.bounds, by default), checked on
 * {@value #VALUE_CHECKS} reads each between two references. With a lag, also prints
 * {@code agreement.outside}: how many of as many Instant.now().toEpochMilli() reads and a
 * System.currentTimeMillis() read just after (rewritten here) differ by more than the lag
 * (epoch.agrees-with-millis); pairs around which this thread was held up longer than the lag (a
 * busy host: a System.currentTimeMillis() read just before is that far behind) say nothing of the
 * clocks and are counted in {@code agreement.heldUp} instead; and {@code dateAheadOfMillis}: how
 * many new Date() reads were later than a System.currentTimeMillis() read just after them.
 *
 * <p>With "stated" as the lag (the coarse clock's L, as the agent stated it), a value or a pair past L
 * is not wrong where the kernel's own CLOCK_REALTIME_COARSE, read just before, was as far behind
 * (a late kernel tick, which no L stated at start-up covers: millis.lag in docs/CONTRACT.md): a value
 * no older than the kernel's coarse clock is counted in {@code pastLagWithTheKernel} instead, out of
 * {@code checkedAgainstTheKernel} values and pairs (the test bounds the share: an L stated too small
 * would otherwise pass as a kernel running late).
 */
public final class JTimeCoverageApp {
    static final int WARM_UP = 3_000;
    public static final int VALUE_CHECKS = 2_000;
    private static boolean kernelExcusesLateTicks;
    private static long agreementHeldUp;
    private static long pastLagWithTheKernel;
    private static long checkedAgainstTheKernel;

    public static void main(String[] args) throws Exception {
        AgentVerdict.await();
        int ops = Integer.parseInt(args[0]);
        String where = args.length > 1 ? args[1] : "both";
        // "stated": the L the agent stated at start (its informational mirror), so that the check uses this run's L.
        boolean stated = args.length > 2 && args[2].equals("stated");
        long lagMs = args.length <= 2 ? 1 : stated ? Long.getLong("fastclock.millisLagMs", 1L) : Long.parseLong(args[2]);
        kernelExcusesLateTicks = stated;
        System.out.println("lagMs=" + lagMs);
        List<String> names = JTimeOps.names();
        System.out.println("ops=" + ops);
        System.out.println("entryPoints=" + names.size());
        System.out.println("backends=" + ReferenceClocks.backends().replace(' ', ','));
        System.out.println("epoch=" + epochBackend());
        if (!where.equals("isolated")) {
            for (String name : names) {
                JTimeOps.run(name, WARM_UP);
                checkValue(name, () -> JTimeOps.run(name, 1), lagMs);
                long before = JnaClocks.countedSlowReads();
                CountedWindow.run(1, () -> JTimeOps.run(name, ops));
                System.out.println("app." + name + "=" + (JnaClocks.countedSlowReads() - before));
            }
        }
        if (!where.equals("app")) {
            Method run = isolatedOps().getMethod("run", String.class, int.class);
            for (String name : names) {
                run.invoke(null, name, WARM_UP);
                long before = JnaClocks.countedSlowReads();
                CountedWindow.run(1, () -> invoke(run, name, ops));
                System.out.println("isolated." + name + "=" + (JnaClocks.countedSlowReads() - before));
            }
        }
        if (args.length > 2) {
            System.out.println("agreement.outside=" + agreementOutside(lagMs));
            System.out.println("agreement.heldUp=" + agreementHeldUp);
            System.out.println("dateAheadOfMillis=" + dateAheadOfMillis());
            System.out.println("pastLagWithTheKernel=" + pastLagWithTheKernel);
            System.out.println("checkedAgainstTheKernel=" + checkedAgainstTheKernel);
        }
        System.out.println("done=ok");
    }

    /**
     * How often new Date() is later than a System.currentTimeMillis() read (rewritten here) just after
     * it: never when both read the same clock, often when Date reads a finer one than the coarse millis.
     */
    private static long dateAheadOfMillis() {
        long ahead = 0;
        for (int i = 0; i < VALUE_CHECKS; i++) {
            long date = new java.util.Date().getTime();
            if (date > System.currentTimeMillis()) {
                ahead++;
            }
        }
        return ahead;
    }

    private static long agreementOutside(long lagMs) {
        long outside = 0;
        for (int i = 0; i < VALUE_CHECKS; i++) {
            long before = System.currentTimeMillis();
            long kernelCoarseMs = kernelCoarseMs();
            long instant = java.time.Instant.now().toEpochMilli();
            long millis = System.currentTimeMillis();
            if (millis - before > lagMs) {
                agreementHeldUp++;
            } else if (Math.abs(millis - instant) > lagMs) {
                if (millis >= kernelCoarseMs && instant - kernelCoarseMs > lagMs) {
                    pastLagWithTheKernel++;
                } else {
                    outside++;
                }
            }
        }
        return outside;
    }

    /** Values that are instants must lie around two reads of CLOCK_REALTIME (no rewriting touches those). */
    private static void checkValue(String name, java.util.function.LongSupplier op, long lagMs) {
        if (!JTimeOps.isEpochMillis(name)) {
            long v = op.getAsLong();
            System.out.println("value." + name + "=" + (v != Long.MIN_VALUE ? "ok" : "WRONG"));
            return;
        }
        String wrong = null;
        for (int i = 0; i < VALUE_CHECKS && wrong == null; i++) {
            long beforeMs = Math.floorDiv(JnaClocks.realtimeNanos(), 1_000_000L);
            long kernelCoarseMs = kernelCoarseMs();
            long v = op.getAsLong();
            long afterMs = Math.floorDiv(JnaClocks.realtimeNanos(), 1_000_000L);
            if (v < beforeMs - lagMs && v >= kernelCoarseMs && v <= afterMs + 1) {
                pastLagWithTheKernel++;
            } else if (v < beforeMs - lagMs || v > afterMs + 1) {
                wrong = "WRONG " + v + " not in [" + beforeMs + " - " + lagMs + ", " + afterMs + " + 1]";
            }
        }
        System.out.println("value." + name + "=" + (wrong == null ? "ok" : wrong));
    }

    /** The kernel's coarse clock in ms where it may excuse a late read; otherwise a value no read reaches. */
    private static long kernelCoarseMs() {
        if (!kernelExcusesLateTicks) {
            return Long.MAX_VALUE;
        }
        checkedAgainstTheKernel++;
        return Math.floorDiv(JnaClocks.realtimeCoarseNanos(), 1_000_000L);
    }

    private static void invoke(Method run, String name, int times) {
        try {
            run.invoke(null, name, times);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    static String epochBackend() {
        try {
            Class<?> fastClock = Class.forName("io.fastclock.runtime.FastClock", true, null);
            return String.valueOf(fastClock.getMethod("epochBackend").invoke(null));
        } catch (ClassNotFoundException e) {
            return "none";
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /** JTimeOps (and its nested lambdas' host) defined again by a loader whose parent is the bootstrap loader. */
    static Class<?> isolatedOps() throws Exception {
        String name = "io.fastclock.it.apps." + "JTimeOps";
        byte[] bytes;
        try (InputStream in = JTimeCoverageApp.class.getResourceAsStream("/" + name.replace('.', '/') + ".class")) {
            bytes = in.readAllBytes();
        }
        BootParentLoader loader = new BootParentLoader();
        Class<?> isolated = loader.define(name, bytes);
        if (isolated.getClassLoader() != loader || isolated == JTimeOps.class) {
            throw new IllegalStateException("not isolated");
        }
        return isolated;
    }

    static final class BootParentLoader extends ClassLoader {
        BootParentLoader() {
            super(null);
        }

        Class<?> define(String name, byte[] bytes) {
            return defineClass(name, bytes, 0, bytes.length);
        }
    }
}
