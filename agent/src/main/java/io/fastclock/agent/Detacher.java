package io.fastclock.agent;

import io.fastclock.boot.ClockSwitch;
import io.fastclock.clock.TscClock;
import io.fastclock.rewrite.ClassFilter;
import io.fastclock.rewrite.ClockReplacements;
import io.fastclock.rewrite.ClockTransformer;
import io.fastclock.rewrite.JdkScope;
import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Undoes an active fastclock ({@code java -jar fastclock.jar detach PID}): FastClock is switched back
 * to the system clocks, the transformer rewrites nothing more, and every class it changed is
 * retransformed, which gives back the class's original bytes. Before that, the TSC clock falls back to
 * the system clock (never below a value it handed out) and this waits until {@code System.nanoTime()}
 * has passed that floor, so that no thread sees nanoTime go backwards when its code moves from the
 * TSC clock to the system clock. The transformer stays installed: it still refuses classes named like
 * the runtime's, which a class left calling FastClock (a hidden class, say) would link to.
 */
final class Detacher {
    /** Longest wait for System.nanoTime() to pass the fallback floor (normally well under 1 ms). */
    static final long MAX_FLOOR_WAIT_NANOS = 5_000_000_000L;
    static final int BATCH = 100;

    private static volatile Detacher installed;

    private final Instrumentation inst;
    private final ClockTransformer transformer;
    private final TscClock tsc;
    private boolean detached;

    private Detacher(Instrumentation inst, ClockTransformer transformer, TscClock tsc) {
        this.inst = inst;
        this.transformer = transformer;
        this.tsc = tsc;
    }

    static void install(Instrumentation inst, ClockTransformer transformer, TscClock tsc) {
        installed = new Detacher(inst, transformer, tsc);
    }

    /** Runs in agentmain("detach"): the line that says what happened, or null when fastclock never went active. */
    static String detachInstalled() {
        Detacher d = installed;
        return d == null ? null : d.detach();
    }

    private synchronized String detach() {
        if (detached) {
            return "detached already";
        }
        long started = System.nanoTime();
        GeneratedClassesPass.stop();
        transformer.rescope(new ClockTransformer.Scope(new ClassFilter(Collections.emptyList(), Collections.emptyList()),
                JdkScope.NONE, ClockReplacements.of(Collections.emptyList())));
        if (tsc != null) {
            tsc.fallBack("fastclock detached");
            // tsc.nanoTime() now returns max(System.nanoTime(), floor): once System.nanoTime() is
            // past it, the original code's reads continue from where the TSC clock's left off.
            long floor = tsc.nanoTime();
            long deadline = System.nanoTime() + MAX_FLOOR_WAIT_NANOS;
            long now;
            while ((now = System.nanoTime()) <= floor && now < deadline) {
                Thread.onSpinWait();
            }
        }
        // FastClock back on the system clocks, for what still calls it (a method reference's hidden class).
        String notSwitched = ClockSwitch.switchTo(inst, transformer, Collections.emptySet());
        Set<String> changed;
        synchronized (transformer.changed()) {
            changed = new HashSet<>(transformer.changed());
        }
        List<Class<?>> restore = new ArrayList<>();
        for (Class<?> c : inst.getAllLoadedClasses()) {
            if (!c.isArray() && !c.isPrimitive() && changed.contains(c.getName().replace('.', '/')) && inst.isModifiableClass(c)) {
                restore.add(c);
            }
        }
        int restored = 0;
        int failed = 0;
        String firstFailure = null;
        for (int from = 0; from < restore.size(); from += BATCH) {
            List<Class<?>> batch = restore.subList(from, Math.min(restore.size(), from + BATCH));
            try {
                inst.retransformClasses(batch.toArray(new Class<?>[0]));
                restored += batch.size();
            } catch (Throwable batchFailure) {
                for (Class<?> c : batch) {
                    try {
                        inst.retransformClasses(c);
                        restored++;
                    } catch (Throwable t) {
                        failed++;
                        if (firstFailure == null) {
                            firstFailure = c.getName() + " (" + t + ")";
                        }
                    }
                }
            }
        }
        detached = true;
        long elapsedMs = (System.nanoTime() - started) / 1_000_000L;
        return "detached: original code of " + restored + " classes restored in " + elapsedMs + " ms"
                + (failed == 0 ? "" : "; " + failed + " could not be restored (first " + firstFailure
                        + "), they keep fastclock's clocks")
                + (notSwitched == null ? "" : "; " + notSwitched + ", so what still calls it keeps fastclock's clocks")
                + "; the application runs on the system clocks";
    }
}
