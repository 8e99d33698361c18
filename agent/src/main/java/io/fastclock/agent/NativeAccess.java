package io.fastclock.agent;

import java.lang.instrument.Instrumentation;
import java.util.Collections;

/**
 * JDK 24+ flags System.load from a module without native access. The agent's own module gets it
 * here, through java.base's internal JavaLangAccess (exported to that module alone first), and no
 * other module does: enabling it for ALL-UNNAMED would give it to the application's class path too.
 * Reflective, because the method exists on JDK 22+ only and this is compiled against JDK 17; called
 * once, on JDK 24+ only.
 */
final class NativeAccess {
    private NativeAccess() {}

    /** JDK 24+: native access for this agent's module, so that loading libfastclock prints no warning. */
    static void prepare(Instrumentation inst) {
        if (Runtime.version().feature() < 24) {
            return;
        }
        Module agent = NativeAccess.class.getModule();
        inst.redefineModule(Object.class.getModule(), Collections.emptySet(),
                Collections.singletonMap("jdk.internal.access", Collections.singleton(agent)), Collections.emptyMap(),
                Collections.emptySet(), Collections.emptyMap());
        enable(agent);
    }

    static void enable(Module module) {
        try {
            Class<?> secrets = Class.forName("jdk.internal.access.SharedSecrets");
            Object access = secrets.getMethod("getJavaLangAccess").invoke(null);
            Class.forName("jdk.internal.access.JavaLangAccess").getMethod("addEnableNativeAccess", Module.class)
                    .invoke(access, module);
        } catch (ReflectiveOperationException | RuntimeException e) {
            // The JVM then prints its own warning when the library loads; nothing else changes.
        }
    }
}
