package io.fastclock.agent;

import java.lang.instrument.Instrumentation;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Defines the boot runtime: the named module {@value #MODULE} in the bootstrap class loader, in no
 * layer, and every class of its packages, so that a rewritten class links to FastClock from any class
 * loader. FastClock's package is exported to every module (JDK 11: to every unnamed one, and to each
 * named module whose classes are rewritten, boot.ReadsRuntime); the rewriting and the switch, which
 * hold the transformer and the registry of backends, only to the module that defines it; nothing is
 * opened, so no lookup into it can be had, and no class can be defined into its packages (the boot
 * loader does not verify what it defines).
 *
 * <p>Names only the JDK, the runtime and {@link BootClassDefiner}: it also runs in premain's own
 * loader ({@link EarlyRuntime}), where nothing else of the agent is.
 *
 * <p>Why this way: appending a jar to the bootstrap search path makes JDK 17 print a CDS warning and
 * turns class sharing off for the application; a Boot-Class-Path manifest entry breaks when the jar is
 * renamed; classes defined in the boot loader's unnamed module are open to every lookup.
 */
final class BootRuntime {
    static final String MODULE = "io.fastclock.runtime";
    static final String API = "io.fastclock.runtime";
    static final String REWRITE = "io.fastclock.rewrite";
    /** The package only fastclock's own module may use. */
    static final String SWITCH = "io.fastclock.boot";
    /** The runtime's packages other than the API. */
    static final String[] INNER = {REWRITE, SWITCH};

    /**
     * Every class of the runtime, supertypes before subtypes (a definition resolves its supertypes);
     * BootRuntimeClassesTest holds it to what javac made of the three packages.
     */
    static final String[] CLASSES = {
        "io.fastclock.runtime.MillisClock", "io.fastclock.runtime.NanosClock", "io.fastclock.runtime.EpochClock",
        "io.fastclock.runtime.SystemClocks", "io.fastclock.runtime.SystemClocks$1", "io.fastclock.runtime.SystemClocks$2",
        "io.fastclock.runtime.FastClock",
        "io.fastclock.rewrite.RewriteListener", "io.fastclock.rewrite.RewriteLines", "io.fastclock.rewrite.RewriteStats", "io.fastclock.rewrite.Rewritten",
        "io.fastclock.rewrite.ClassRewriter", "io.fastclock.rewrite.ClassBytes", "io.fastclock.rewrite.ClassFilter",
        "io.fastclock.rewrite.JdkScope", "io.fastclock.rewrite.JdkScope$1", "io.fastclock.rewrite.ClockReplacements",
        "io.fastclock.rewrite.ClockReplacements$Row", "io.fastclock.rewrite.ClockReplacements$Served",
        "io.fastclock.rewrite.ConstantPoolRewriter", "io.fastclock.rewrite.ConstantPoolRewriter$Pool",
        "io.fastclock.rewrite.ConstantPoolRewriter$SiteCounter", "io.fastclock.rewrite.RuntimePackages",
        "io.fastclock.rewrite.RuntimeShadows", "io.fastclock.rewrite.ClockTransformer",
        "io.fastclock.rewrite.ClockTransformer$Scope",
        "io.fastclock.boot.BootLog", "io.fastclock.boot.JdkEpoch", "io.fastclock.boot.ClockRegistry", "io.fastclock.boot.InstalledClocks",
        "io.fastclock.boot.ClockSwitch", "io.fastclock.boot.ReadsRuntime", "io.fastclock.boot.RuntimeAccess",
        "io.fastclock.boot.EarlyStart", "io.fastclock.boot.EarlyStart$LineTo",
    };

    private BootRuntime() {}

    /**
     * What java.base opens to the module that defines the runtime: java.lang on JDK 11, which has no
     * export to every module but Module's own (BootClassDefiner.addExportsToAll); nothing elsewhere.
     */
    static Map<String, Set<Module>> opensForExportToAll(Module definer) {
        return "11".equals(System.getProperty("java.specification.version"))
                ? Collections.singletonMap("java.lang", Collections.singleton(definer)) : Collections.emptyMap();
    }

    /**
     * @param classFiles a class's file by its resource name ({@code io/fastclock/runtime/FastClock.class})
     * @param user the module that goes on to use the runtime's inner packages
     * @return the runtime's module
     */
    static Module define(Function<String, byte[]> classFiles, Module user) {
        HashSet<String> packages = new HashSet<>(Arrays.asList(INNER));
        packages.add(API);
        Module runtime = BootClassDefiner.defineModule(MODULE, packages);
        Module javaBase = Object.class.getModule();
        BootClassDefiner.addReads(runtime, javaBase);
        BootClassDefiner.addReads(runtime, Instrumentation.class.getModule());
        // java.base's rewritten classes link to FastClock: the edge now, not through a redefineModule later
        BootClassDefiner.addReads(javaBase, runtime);
        BootClassDefiner.addExports(javaBase, "jdk.internal.misc", runtime);
        BootClassDefiner.addExportsToAll(runtime, API);
        for (String pkg : INNER) {
            BootClassDefiner.addExports(runtime, pkg, user);
        }
        if (user.isNamed()) {
            BootClassDefiner.addReads(user, runtime);
            BootClassDefiner.addExports(runtime, API, user);
        }
        for (String name : CLASSES) {
            byte[] bytes = classFiles.apply(name.replace('.', '/') + ".class");
            if (bytes == null) {
                throw new IllegalStateException("fastclock.jar lacks the runtime's " + name);
            }
            BootClassDefiner.define(name, bytes);
        }
        return runtime;
    }
}
