package io.fastclock.entry;

import java.io.IOException;
import java.lang.instrument.Instrumentation;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * premain's set-up of the boot runtime (io.fastclock.agent.EarlyRuntime), in a loader of the entry's
 * own ({@link OwnLoader}) holding the three classes that do it and nothing else: the one module java.base
 * exports jdk.internal.misc and jdk.internal.module (and jdk.internal.access on JDK 12+) to for that. The loader is made, used and dropped
 * within premain, before any application code runs; it calls out to nothing the application could
 * have replaced.
 */
final class RuntimeSetup {
    static final String AGENT_PACKAGE = "io.fastclock.agent.";
    /** Defined eagerly (none extends another), so the loader finds them and nothing else. */
    static final String[] CLASSES = {"BootClassDefiner", "BootRuntime", "EarlyRuntime"};
    static final String EARLY_RUNTIME = AGENT_PACKAGE + "EarlyRuntime";
    static final String LOADER_NAME = "fastclock-runtime-setup";

    private RuntimeSetup() {}

    /**
     * Sets up the boot runtime and its transformer.
     *
     * @param settings io.fastclock.boot.EarlyStart's, from EntrySettings.earlySettings
     */
    static void install(Instrumentation inst, JarSnapshot jar, String[] settings) throws IOException, ClassNotFoundException {
        byte[][] classFiles = new byte[CLASSES.length][];
        for (int i = 0; i < CLASSES.length; i++) {
            classFiles[i] = jar.read(JarSnapshot.entryName((AGENT_PACKAGE + CLASSES[i]).replace('.', '/') + ".class"));
            if (classFiles[i] == null) {
                throw new IOException("fastclock.jar lacks " + AGENT_PACKAGE + CLASSES[i]);
            }
        }
        OwnLoader loader = new OwnLoader(LOADER_NAME);
        Module setup = loader.getUnnamedModule();
        Map<String, Set<Module>> exports = new HashMap<>();
        exports.put("jdk.internal.misc", Collections.singleton(setup));
        exports.put("jdk.internal.module", Collections.singleton(setup));
        if (Runtime.version().feature() >= 12) { // the runtime module's descriptor, built unchecked (BootClassDefiner)
            exports.put("jdk.internal.access", Collections.singleton(setup));
        }
        // JDK 11 has no export to every module but Module's own: java.lang open to this loader for it
        // (io.fastclock.agent.BootRuntime.opensForExportToAll says the same for the agent's module).
        Map<String, Set<Module>> opens = Runtime.version().feature() == 11
                ? Collections.singletonMap("java.lang", Collections.singleton(setup)) : Collections.emptyMap();
        // The JVM's first lambdas, here (milliseconds): the JDK's own, in redefineModule. On a thread of
        // their own, started once premain knows it sets the runtime up, beside its reads and definitions,
        // premain took longer on two CPUs, quiet or busy (the JVM's start-up keeps the other one). They
        // read system properties, which may run the application's code (a Properties of its own): the
        // loader holds no class yet, and this thread holds no lock the application may wait for.
        inst.redefineModule(Object.class.getModule(), Collections.emptySet(), exports, opens,
                Collections.emptySet(), Collections.emptyMap());
        // From here on no code of the application's runs on this thread (HookedPropertiesIT), and under
        // System's class lock none installs a SecurityManager on another (EntryStart.securityManager).
        synchronized (System.class) {
            if (EntryStart.securityManager()) {
                throw new IllegalStateException("a SecurityManager was installed during premain");
            }
            for (int i = 0; i < CLASSES.length; i++) {
                loader.define(AGENT_PACKAGE + CLASSES[i], classFiles[i]);
            }
            loader.hand(new Object[] {inst, jar, settings});
            Class.forName(EARLY_RUNTIME, true, loader);
        }
    }
}
