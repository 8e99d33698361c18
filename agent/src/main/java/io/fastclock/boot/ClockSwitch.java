package io.fastclock.boot;

import io.fastclock.rewrite.ClockReplacements;
import io.fastclock.rewrite.ClockReplacements.Row;
import io.fastclock.rewrite.ClockReplacements.Served;
import io.fastclock.rewrite.ClockTransformer;
import io.fastclock.runtime.FastClock;
import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Moves FastClock from the JDK's clocks to the installed backends, clock by clock: FastClock is
 * retransformed, and its transformer ({@link ClockTransformer#switchTo}) repoints its call of the
 * JDK's clock, and of that clock's name, at {@link InstalledClocks}. A retransformation changes the
 * method for every caller at once: the JIT deoptimises what inlined it (a loop already running in
 * main among them), interpreted callers take the new method at their next call, and method references
 * bound before go through FastClock too. Switching back (detach) is a retransformation that keeps
 * FastClock's own bytes.
 */
public final class ClockSwitch {
    static final String SYSTEM_CLOCKS = "io/fastclock/runtime/SystemClocks";
    static final String INSTALLED_CLOCKS = "io/fastclock/boot/InstalledClocks";
    private static final String NAME = "()Ljava/lang/String;";

    private ClockSwitch() {}

    /** FastClock's rows for these clocks: each JDK read and its name, repointed at InstalledClocks. */
    static ClockReplacements rows(Set<Served> switched) {
        List<Row> rows = new ArrayList<>();
        for (Row r : ClockReplacements.TABLE) {
            if (switched.contains(r.servedBy)) {
                rows.add(new Row(r.owner, r.name, r.descriptor, INSTALLED_CLOCKS, r.newName, r.servedBy));
            }
        }
        for (Served s : switched) {
            String name = s == Served.MILLIS ? "millisBackend" : s == Served.NANOS ? "nanosBackend" : "epochBackend";
            rows.add(new Row(SYSTEM_CLOCKS, name, NAME, INSTALLED_CLOCKS, name, s));
        }
        return ClockReplacements.of(rows);
    }

    /**
     * Switches the clocks in {@code switched} to the installed backends (none: back to the JDK's).
     *
     * @return null once FastClock answers with the installed backends' names, else why not (it then
     *     still serves the JDK's clocks, for every clock)
     */
    public static String switchTo(Instrumentation inst, ClockTransformer transformer, Set<Served> switched) {
        transformer.switchTo(switched.isEmpty() ? null : rows(switched));
        try {
            inst.retransformClasses(FastClock.class);
        } catch (Throwable t) {
            transformer.switchTo(null);
            return "FastClock could not be retransformed: " + t;
        }
        String millis = switched.contains(Served.MILLIS) ? InstalledClocks.millisBackend() : "system";
        String nanos = switched.contains(Served.NANOS) ? InstalledClocks.nanosBackend() : "system";
        if (!millis.equals(FastClock.millisBackend()) || !nanos.equals(FastClock.nanosBackend())) {
            return "FastClock did not take the switch (it answers millis=" + FastClock.millisBackend() + ", nanos="
                    + FastClock.nanosBackend() + ")";
        }
        return null;
    }
}
