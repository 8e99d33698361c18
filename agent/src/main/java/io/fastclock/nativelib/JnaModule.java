package io.fastclock.nativelib;

import java.io.IOException;
import java.lang.module.Configuration;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Set;

/**
 * The jna-coarse backend's JNA as a named module (the jar's automatic module, com.sun.jna) in a layer
 * and loader of its own. Why: JDK 24+ warns when System.load is called from a module without native
 * access (JNA loads its stub so), and every unnamed module shares one native-access flag, so JNA in
 * an unnamed module could be spared the warning only by giving native access to the application's
 * class path too. A named module gets it alone, from this agent's module, which has it.
 */
final class JnaModule {
    private JnaModule() {}

    /** @return the loader of the layer holding JNA, whose parent is {@code parent} */
    static ClassLoader define(Path jar, ClassLoader parent) throws IOException {
        ModuleFinder finder = ModuleFinder.of(jar);
        Set<ModuleReference> found = finder.findAll();
        if (found.size() != 1) {
            throw new IOException("the bundled JNA jar is not one module: " + found);
        }
        String name = found.iterator().next().descriptor().name();
        Configuration cf = ModuleLayer.boot().configuration().resolve(finder, ModuleFinder.of(), Collections.singleton(name));
        ModuleLayer.Controller controller = ModuleLayer.defineModulesWithOneLoader(cf,
                Collections.singletonList(ModuleLayer.boot()), parent);
        Module jna = controller.layer().findModule(name).orElseThrow(() -> new IOException("JNA's module was not defined"));
        enableNativeAccess(controller, jna);
        return jna.getClassLoader();
    }

    /**
     * JDK 24+ only: before that System.load is not flagged, and on 22 and 23 enableNativeAccess is
     * itself a restricted method this agent's module has no native access to call.
     */
    private static void enableNativeAccess(ModuleLayer.Controller controller, Module jna) {
        if (Runtime.version().feature() < 24) {
            return;
        }
        try {
            ModuleLayer.Controller.class.getMethod("enableNativeAccess", Module.class).invoke(controller, jna);
        } catch (ReflectiveOperationException | RuntimeException e) {
            // the JVM then prints its own warning when JNA loads its stub; nothing else changes
        }
    }
}
