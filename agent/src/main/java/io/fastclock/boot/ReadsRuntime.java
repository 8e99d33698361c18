package io.fastclock.boot;

import java.lang.instrument.Instrumentation;
import java.util.Collections;
import java.util.function.Predicate;

/**
 * The transformer's gate for a class in a named module: the module is made to read the runtime, and
 * the runtime to export FastClock's package to it (to every unnamed module it is exported from the
 * start), so that the rewritten class links. Only the Instrumentation can add either edge.
 */
final class ReadsRuntime implements Predicate<Module> {
    private final Instrumentation inst;
    private final Module runtime;

    ReadsRuntime(Instrumentation inst, Module runtime) {
        this.inst = inst;
        this.runtime = runtime;
    }

    @Override
    public boolean test(Module module) {
        try {
            if (!module.canRead(runtime)) {
                inst.redefineModule(module, Collections.singleton(runtime), Collections.emptyMap(), Collections.emptyMap(),
                        Collections.emptySet(), Collections.emptyMap());
            }
            if (!runtime.isExported(RuntimeAccess.API, module)) {
                inst.redefineModule(runtime, Collections.emptySet(),
                        Collections.singletonMap(RuntimeAccess.API, Collections.singleton(module)), Collections.emptyMap(),
                        Collections.emptySet(), Collections.emptyMap());
            }
            return module.canRead(runtime) && runtime.isExported(RuntimeAccess.API, module);
        } catch (RuntimeException e) {
            return false;
        }
    }
}
