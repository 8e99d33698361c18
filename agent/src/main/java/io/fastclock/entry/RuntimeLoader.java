package io.fastclock.entry;

import java.io.IOException;
import java.lang.instrument.Instrumentation;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * premain's class loader for setting up the boot runtime (io.fastclock.agent.EarlyRuntime): the one
 * module java.base exports jdk.internal.misc and jdk.internal.module to for that, holding the three
 * classes that do it and nothing else. It is made, used and dropped within premain, before any
 * application code runs; no reference to it or its classes is kept, and it calls out to nothing the
 * application could have replaced.
 *
 * <p>It hands EarlyRuntime its arguments once ({@link #get}): EarlyRuntime's work runs in its
 * initialiser, which premain triggers without reflection (whose first use spins method handles on JDK
 * 18+, milliseconds in premain).
 */
final class RuntimeLoader extends ClassLoader implements Supplier<Object> {
    static final String AGENT_PACKAGE = "io.fastclock.agent.";
    static final String[] CLASSES = {"BootClassDefiner", "BootRuntime", "EarlyRuntime"};
    static final String EARLY_RUNTIME = AGENT_PACKAGE + "EarlyRuntime";
    /** io.fastclock.agent.EarlyRuntime's arguments: Instrumentation, class files, settings. */
    static final int ARGUMENTS = 3;

    private final Map<String, byte[]> classes;
    private Object[] arguments;

    private RuntimeLoader(Map<String, byte[]> classes, Object[] arguments) {
        super("fastclock-runtime-setup", null);
        this.classes = classes;
        this.arguments = arguments;
    }

    /**
     * Sets up the boot runtime and its transformer.
     *
     * @param settings io.fastclock.boot.EarlyStart's, from EntrySettings.earlySettings
     */
    static void install(Instrumentation inst, JarSnapshot jar, String[] settings) throws IOException, ClassNotFoundException {
        Map<String, byte[]> classes = new HashMap<>();
        for (String simple : CLASSES) {
            byte[] bytes = jar.read(JarSnapshot.entryName((AGENT_PACKAGE + simple).replace('.', '/') + ".class"));
            if (bytes == null) {
                throw new IOException("fastclock.jar lacks " + AGENT_PACKAGE + simple);
            }
            classes.put(AGENT_PACKAGE + simple, bytes);
        }
        RuntimeLoader loader = new RuntimeLoader(classes, new Object[] {inst, jar, settings});
        Map<String, java.util.Set<Module>> exports = new HashMap<>();
        exports.put("jdk.internal.misc", Collections.singleton(loader.getUnnamedModule()));
        exports.put("jdk.internal.module", Collections.singleton(loader.getUnnamedModule()));
        // JDK 11 has no export to every module but Module's own: java.lang open to this loader for it
        // (io.fastclock.agent.BootRuntime.opensForExportToAll says the same for the agent's module).
        Map<String, java.util.Set<Module>> opens = "11".equals(System.getProperty("java.specification.version"))
                ? Collections.singletonMap("java.lang", Collections.singleton(loader.getUnnamedModule())) : Collections.emptyMap();
        inst.redefineModule(Object.class.getModule(), Collections.emptySet(), exports, opens,
                Collections.emptySet(), Collections.emptyMap());
        Class.forName(EARLY_RUNTIME, true, loader);
    }

    /** EarlyRuntime's arguments, once. */
    @Override
    public synchronized Object get() {
        Object[] handed = arguments;
        arguments = null;
        return handed;
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        synchronized (getClassLoadingLock(name)) {
            Class<?> c = findLoadedClass(name);
            if (c == null) {
                byte[] bytes = classes.remove(name);
                c = bytes != null ? defineClass(name, bytes, 0, bytes.length) : super.loadClass(name, false);
            }
            if (resolve) {
                resolveClass(c);
            }
            return c;
        }
    }
}
