package io.fastclock.boot;

import io.fastclock.rewrite.ClockTransformer;

/**
 * The boot runtime as the agent's module reaches it, once the runtime's other packages are exported to
 * that module alone (agent.RuntimeModule, with the Instrumentation): the transformer installed at
 * start-up. The runtime module (io.fastclock.runtime in
 * the boot loader) exports FastClock's package to every unnamed module and, class by class, to the
 * named modules whose classes are rewritten; it opens nothing, so no lookup into it can be had.
 */
public final class RuntimeAccess {
    /** The package rewritten call sites link to. */
    public static final String API = "io.fastclock.runtime";

    private static volatile ClockTransformer installed;
    private static boolean claimed;

    private RuntimeAccess() {}

    static void installed(ClockTransformer transformer) {
        installed = transformer;
    }

    /**
     * The first copy of fastclock's module to ask owns the runtime (and the transformer premain
     * installed): true for it alone. Another copy (the jar given twice, or attached to a JVM that has
     * fastclock) does nothing.
     */
    public static synchronized boolean claim() {
        boolean first = !claimed;
        claimed = true;
        return first;
    }

    /** The transformer the runtime installed, or null where none was. */
    public static ClockTransformer transformer() {
        return installed;
    }
}
