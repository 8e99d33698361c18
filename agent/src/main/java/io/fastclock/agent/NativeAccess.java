package io.fastclock.agent;

/**
 * JDK 24+ flags System.load from a module without native access. The agent's own module gets it
 * here, through java.base's internal JavaLangAccess (exported to that module alone first, by
 * BootstrapInjector), and no other module does: enabling it for ALL-UNNAMED would give it to the
 * application's class path too. Reflective, because the method exists on JDK 22+ only and this is
 * compiled against JDK 17; called once, on JDK 24+ only.
 */
final class NativeAccess {
    private NativeAccess() {}

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
