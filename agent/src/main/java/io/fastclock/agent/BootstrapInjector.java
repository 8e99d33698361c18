package io.fastclock.agent;

import io.fastclock.nativelib.AgentResources;

import java.io.IOException;
import java.lang.instrument.Instrumentation;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Defines the boot runtime (io.fastclock.runtime: the entry points rewritten call sites link to, and
 * the types of their backends) in the bootstrap class loader, so that a rewritten class links to it
 * from any class loader.
 *
 * <p>Why this way: appending a jar to the bootstrap search path makes JDK 17 print a CDS warning
 * and turns class sharing off for the application; a Boot-Class-Path manifest entry breaks when the
 * jar is renamed. Instead java.base exports jdk.internal.misc (for Unsafe.defineClass with a null
 * loader) to this agent's own module through Instrumentation.redefineModule, and, on JDK 24+,
 * jdk.internal.access (to give that module native access, so that loading libfastclock prints no
 * restricted-method warning). The agent's module is a named module in a layer of its own (see
 * io.fastclock.entry.PrivateModule): application code cannot load classes into it, so these exports
 * reach the agent only. Nothing is opened for deep reflection.
 *
 * <p>This class must not name a runtime class itself: they are loaded only once defined here.
 */
final class BootstrapInjector {
    static final String RUNTIME_PACKAGE = "io.fastclock.runtime";

    /** Every boot runtime class, supertypes before subtypes (defineClass resolves the supertype). */
    static final String[] RUNTIME_CLASSES = {
        "MillisClock", "NanosClock", "EpochClock", "SystemClocks", "SystemClocks$1", "SystemClocks$2", "ClockRegistry",
        "FastClock",
    };

    private BootstrapInjector() {}


    static boolean alreadyInjected() {
        try {
            Class.forName(RUNTIME_PACKAGE + ".FastClock", false, null);
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    /**
     * JDK 24+: native access for the agent's module, so that loading libfastclock (the probe does)
     * prints no restricted-method warning. Exports jdk.internal.access to that module only.
     */
    static void prepareNativeAccess(Instrumentation inst) {
        if (Runtime.version().feature() < 24) {
            return;
        }
        Module agent = BootstrapInjector.class.getModule();
        inst.redefineModule(Object.class.getModule(), Collections.emptySet(),
                Collections.singletonMap("jdk.internal.access", Collections.singleton(agent)), Collections.emptyMap(),
                Collections.emptySet(), Collections.emptyMap());
        NativeAccess.enable(agent);
    }

    private static boolean defined;

    /** Defines the boot runtime once (later calls do nothing): only when it is about to be used. */
    static synchronized void defineRuntime(Instrumentation inst) throws IOException {
        if (defined) {
            return;
        }
        Module javaBase = Object.class.getModule();
        Module agent = BootstrapInjector.class.getModule();
        Map<String, Set<Module>> exports = new HashMap<>();
        exports.put("jdk.internal.misc", Collections.singleton(agent));
        inst.redefineModule(javaBase, Collections.emptySet(), exports, Collections.emptyMap(),
                Collections.emptySet(), Collections.emptyMap());

        String[] paths = new String[RUNTIME_CLASSES.length];
        for (int i = 0; i < paths.length; i++) {
            paths[i] = (RUNTIME_PACKAGE + "." + RUNTIME_CLASSES[i]).replace('.', '/') + ".class";
        }
        byte[][] classBytes = AgentResources.readClasses(paths);
        Class<?> first;
        try {
            first = BootClassDefiner.define(RUNTIME_PACKAGE + "." + RUNTIME_CLASSES[0], classBytes[0]);
            for (int i = 1; i < paths.length; i++) {
                BootClassDefiner.define(RUNTIME_PACKAGE + "." + RUNTIME_CLASSES[i], classBytes[i]);
            }
        } catch (IllegalAccessError | NoSuchMethodError | NoClassDefFoundError e) {
            // Unsafe.defineClass missing or not accessible on this JDK (the first call fails to link).
            throw new IllegalStateException("cannot define the runtime in the bootstrap class loader: " + e, e);
        }
        // A named module reads only what it declares: the runtime is in the boot loader's unnamed module.
        agent.addReads(first.getModule());
        defined = true;
    }

    /** {@link #defineRuntime} for the probe, which needs the runtime's types before JNA loads. */
    static final class RuntimeDefiner implements Runnable {
        private final Instrumentation inst;

        RuntimeDefiner(Instrumentation inst) {
            this.inst = inst;
        }

        @Override
        public void run() {
            try {
                defineRuntime(inst);
            } catch (IOException e) {
                throw new IllegalStateException("cannot define the fastclock runtime: " + e, e);
            }
        }
    }
}
