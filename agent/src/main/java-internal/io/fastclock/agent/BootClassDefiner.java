package io.fastclock.agent;

import java.lang.module.ModuleDescriptor;
import java.lang.reflect.Method;
import java.util.Collections;
import java.util.Set;
import jdk.internal.access.SharedSecrets;
import jdk.internal.misc.Unsafe;
import jdk.internal.module.Modules;

/**
 * The JDK-internal calls that define the boot runtime's module and classes, made directly, not
 * through reflection: compiled apart (agent/pom.xml, execution "jdk-internal-calls") with
 * --add-exports, and usable only once java.base exports jdk.internal.misc and jdk.internal.module to
 * the caller's module (premain's own class loader for {@link EarlyRuntime}, or the agent's module).
 * Through Method.invoke, JDK 17 inflates the accessor after 15 calls (a generated class, ~4 ms) and
 * JDK 18+ builds method handles for the six-argument call (~40 ms of lambda forms on JDK 25 here).
 */
final class BootClassDefiner {
    private BootClassDefiner() {}

    /**
     * A named module in the bootstrap class loader, in no layer: it reads nothing, exports and opens
     * nothing until told to; no lookup can be had into its packages.
     */
    static Module defineModule(String name, Set<String> packages) {
        return Modules.defineModule(null, descriptor(name, packages), null);
    }

    /**
     * What the public builder makes, without its checks of the names (this jar's constants) where
     * java.base exports jdk.internal.access here (premain's loader on JDK 12+, the agent's module on
     * JDK 24+): the packages' check is a method reference, which the JVM spins a class for (0.2 ms of
     * premain). A JDK whose internal builder differs gets the public one.
     */
    static ModuleDescriptor descriptor(String name, Set<String> packages) {
        if (Object.class.getModule().isExported("jdk.internal.access", BootClassDefiner.class.getModule())) {
            try {
                return SharedSecrets.getJavaLangModuleAccess().newModuleBuilder(name, false, Collections.emptySet())
                        .requires(Collections.singleton(ModuleDescriptor.Requires.Modifier.MANDATED), "java.base")
                        .packages(packages).build();
            } catch (LinkageError e) {
                // the public builder below
            }
        }
        return ModuleDescriptor.newModule(name).packages(packages).build();
    }

    static void addReads(Module from, Module to) {
        Modules.addReads(from, to);
    }

    /**
     * Exports {@code pkg} to every module. JDK 11 has no such call: there java.lang is open to the
     * caller's module for Module.implAddExports(String) (the only use of reflection here, which JDK 11
     * serves without method handles); where it is not, the export goes to every unnamed module (a named
     * one is given it when its classes are rewritten, boot.ReadsRuntime).
     */
    static void addExportsToAll(Module module, String pkg) {
        try {
            Modules.addExports(module, pkg);
        } catch (NoSuchMethodError e) {
            try {
                Method export = Module.class.getDeclaredMethod("implAddExports", String.class);
                export.setAccessible(true);
                export.invoke(module, pkg);
            } catch (ReflectiveOperationException | RuntimeException notOpen) {
                Modules.addExportsToAllUnnamed(module, pkg);
            }
        }
    }

    static void addExports(Module module, String pkg, Module to) {
        Modules.addExports(module, pkg, to);
    }

    /** Defines the class in the bootstrap class loader (null loader, null protection domain). */
    static Class<?> define(String name, byte[] bytes) {
        return Unsafe.getUnsafe().defineClass(name, bytes, 0, bytes.length, null, null);
    }
}
