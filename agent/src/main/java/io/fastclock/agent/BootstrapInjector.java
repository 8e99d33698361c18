package io.fastclock.agent;

import java.io.IOException;
import io.fastclock.nativelib.AgentResources;
import io.fastclock.nativelib.BootLoaderLibraries;

import java.lang.instrument.Instrumentation;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Defines the runtime classes (io.fastclock.runtime) in the bootstrap class loader, so that a
 * rewritten class links to them from any class loader.
 *
 * <p>Why this way: appending a jar to the bootstrap search path makes JDK 17 print a CDS warning
 * and turns class sharing off for the application; a Boot-Class-Path manifest entry breaks when the
 * jar is renamed. Instead java.base exports jdk.internal.misc (for Unsafe.defineClass with a null
 * loader) and jdk.internal.loader (to load the JNI library into the boot loader, which JDK 24+
 * does not flag as a restricted call) to this agent's module only, through
 * Instrumentation.redefineModule. Nothing is opened for deep reflection and nothing else changes.
 *
 * <p>This class must not touch a runtime class itself: they are loaded only once defined here.
 */
final class BootstrapInjector {
    static final String RUNTIME_PACKAGE = "io.fastclock.runtime";

    /** Every runtime class, supertypes before subtypes (defineClass resolves the supertype). */
    static final String[] RUNTIME_CLASSES = {
        "LongClock", "RuntimeLog", "TscFallbackListener", "TscTrust", "TickSource", "TickSource$Rdtscp", "TickSource$LfenceRdtsc",
        "TickSource$MfenceRdtsc", "TickSource$Rdtsc",
        "NativeClocks", "SystemMillis", "SystemNanos", "CoarseMillis", "CoarseNanos",
        "TscCalibration", "TscClock$Tuning", "TscClock$Segment", "TscClock", "TscAnchorThread",
        "TscNanos", "TscMillis", "EpochClock", "SystemEpoch", "TscEpoch", "ClockRegistry", "FastClock",
    };

    private final Object bootNativeLibraries;

    private BootstrapInjector(Object bootNativeLibraries) {
        this.bootNativeLibraries = bootNativeLibraries;
    }

    /** jdk.internal.loader.NativeLibraries of the boot loader, for {@code NativeLibraryLoader}. */
    Object bootNativeLibraries() {
        return bootNativeLibraries;
    }

    static boolean alreadyInjected() {
        try {
            Class.forName(RUNTIME_PACKAGE + ".FastClock", false, null);
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    static BootstrapInjector inject(Instrumentation inst) throws ReflectiveOperationException, IOException {
        Module javaBase = Object.class.getModule();
        Module agent = BootstrapInjector.class.getModule();
        Map<String, Set<Module>> exports = new HashMap<>();
        exports.put("jdk.internal.misc", Collections.singleton(agent));
        exports.put("jdk.internal.loader", Collections.singleton(agent));
        inst.redefineModule(javaBase, Collections.emptySet(), exports, Collections.emptyMap(),
                Collections.emptySet(), Collections.emptyMap());

        String[] paths = new String[RUNTIME_CLASSES.length];
        for (int i = 0; i < paths.length; i++) {
            paths[i] = (RUNTIME_PACKAGE + "." + RUNTIME_CLASSES[i]).replace('.', '/') + ".class";
        }
        byte[][] classBytes = AgentResources.readAll(paths);
        try {
            for (int i = 0; i < paths.length; i++) {
                BootClassDefiner.define(RUNTIME_PACKAGE + "." + RUNTIME_CLASSES[i], classBytes[i]);
            }
        } catch (IllegalAccessError | NoSuchMethodError | NoClassDefFoundError e) {
            // Unsafe.defineClass missing or not accessible on this JDK (the first call fails to link).
            throw new IllegalStateException("cannot define the runtime in the bootstrap class loader: " + e, e);
        }

        Object libraries = null;
        try {
            libraries = BootLoaderLibraries.get();
        } catch (NoClassDefFoundError | NoSuchMethodError | IllegalAccessError e) {
            // Not on this JDK (15 and older): the library is then loaded with System.load.
        }
        return new BootstrapInjector(libraries);
    }

}
