package io.fastclock.entry;

import java.util.function.Supplier;

/**
 * A class loader of the entry's own, parent the boot loader, which defines the classes it is given
 * and finds no others. Each instance is made for one use, held on the stack of the call that makes it,
 * and kept by nothing after: EntryState's reader of the agent properties (on its thread), and the
 * boot runtime's set-up ({@link RuntimeSetup}), whose unnamed module is the one java.base exports
 * jdk.internal.misc and jdk.internal.module (and jdk.internal.access on JDK 12+) to for it.
 *
 * <p>As a Supplier it hands io.fastclock.agent.EarlyRuntime its arguments, once: EarlyRuntime's work
 * runs in its initialiser, which premain triggers without reflection (whose first use spins method
 * handles on JDK 18+, milliseconds in premain).
 */
final class OwnLoader extends ClassLoader implements Supplier<Object> {
    private Object handed;

    OwnLoader(String name) {
        super(name, null);
    }

    /** @param name the class's binary name, or null to take the class file's */
    Class<?> define(String name, byte[] bytes) {
        return defineClass(name, bytes, 0, bytes.length);
    }

    synchronized void hand(Object arguments) {
        handed = arguments;
    }

    /** What was handed, once; null after. */
    @Override
    public synchronized Object get() {
        Object h = handed;
        handed = null;
        return h;
    }
}
