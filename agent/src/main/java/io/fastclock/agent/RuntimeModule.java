package io.fastclock.agent;

import io.fastclock.nativelib.AgentResources;
import java.lang.instrument.Instrumentation;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * The boot runtime's module ({@link BootRuntime}) as this agent's module reaches it: premain's, where
 * premain set it up, or one defined now (an attach, or a start whose settings premain could not judge).
 * Its packages other than FastClock's are exported to this module alone, which only the holder of the
 * JVM's Instrumentation can ask for.
 */
final class RuntimeModule {
    static final String FAST_CLOCK = "io.fastclock.runtime.FastClock";

    private RuntimeModule() {}

    /**
     * The runtime's module where this JVM has one, else null. Nothing but fastclock can define one: it
     * is a module of the boot loader, which takes java.base's internal packages to make.
     */
    static Module existing() {
        try {
            Module m = Class.forName(FAST_CLOCK, false, null).getModule();
            return m.isNamed() && m.getClassLoader() == null && m.getLayer() == null && BootRuntime.MODULE.equals(m.getName())
                    ? m : null;
        } catch (ClassNotFoundException | LinkageError e) {
            return null;
        }
    }

    /** Lets this module read the runtime and use all its packages (JDK 11 exports none to every named module). */
    static void open(Instrumentation inst, Module runtime) {
        Module agent = RuntimeModule.class.getModule();
        agent.addReads(runtime);
        Map<String, Set<Module>> exports = new HashMap<>();
        for (String pkg : runtime.getPackages()) {
            if (!runtime.isExported(pkg, agent)) {
                exports.put(pkg, Collections.singleton(agent));
            }
        }
        if (!exports.isEmpty()) {
            inst.redefineModule(runtime, Collections.emptySet(), exports, Collections.emptyMap(), Collections.emptySet(),
                    Collections.emptyMap());
        }
    }

    /**
     * Defines the runtime now: java.base exports jdk.internal.misc and jdk.internal.module to this
     * module alone for it, as it does to premain's own loader when premain defines it (which is given
     * jdk.internal.access too, for the module's descriptor: BootClassDefiner).
     */
    static Module define(Instrumentation inst) {
        Module agent = RuntimeModule.class.getModule();
        Map<String, Set<Module>> exports = new HashMap<>();
        exports.put("jdk.internal.misc", Collections.singleton(agent));
        exports.put("jdk.internal.module", Collections.singleton(agent));
        inst.redefineModule(Object.class.getModule(), Collections.emptySet(), exports, BootRuntime.opensForExportToAll(agent),
                Collections.emptySet(), Collections.emptyMap());
        try {
            return BootRuntime.define(AgentResources.classFiles(), agent);
        } catch (IllegalAccessError | NoSuchMethodError | NoClassDefFoundError e) {
            throw new IllegalStateException("cannot define the runtime in the bootstrap class loader: " + e, e);
        }
    }
}
