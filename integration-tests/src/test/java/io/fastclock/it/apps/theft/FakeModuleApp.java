package io.fastclock.it.apps.theft;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.lang.module.Configuration;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReader;
import java.lang.module.ModuleReference;
import java.net.URI;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * Builds a module layer of its own holding a module named like the agent's, {@code io.fastclock.agent},
 * whose {@code io.fastclock.agent.Launch} (the fake, {@link FakeLaunch} renamed) provides Function,
 * loads it, then waits for the test (which attaches or detaches fastclock) and reports whether the fake
 * was handed an Instrumentation. Args: the fakes' directory, the trigger file.
 */
public final class FakeModuleApp {
    static final String NAME = "io.fastclock.agent";
    static final String LAUNCH = "io/fastclock/agent/Launch.class";
    /** Keeps the fake's layer, and so its class, loaded. */
    static Object fake;

    private FakeModuleApp() {}

    public static void main(String[] args) throws Exception {
        byte[] launch = Loot.read(args[0], "io/fastclock/agent/Launch");
        ModuleLayer layer = layerWith(launch);
        fake = ServiceLoader.load(layer, Function.class).iterator().next();
        System.out.println("fakeModule=" + fake.getClass().getModule().getName());
        Loot.awaitTrigger(args[1]);
        Loot.report();
        System.out.println("done=1");
    }

    static ModuleLayer layerWith(byte[] launch) {
        ModuleDescriptor descriptor = ModuleDescriptor.newModule(NAME).requires("java.instrument")
                .packages(Set.of("io.fastclock.agent"))
                .provides(Function.class.getName(), List.of("io.fastclock.agent.Launch")).build();
        ModuleReference reference = new ModuleReference(descriptor, URI.create("file:///fake/" + NAME)) {
            @Override
            public ModuleReader open() {
                return new ModuleReader() {
                    @Override
                    public Optional<URI> find(String name) {
                        return Optional.empty();
                    }

                    @Override
                    public Optional<InputStream> open(String name) {
                        return name.equals(LAUNCH) ? Optional.of(new ByteArrayInputStream(launch)) : Optional.empty();
                    }

                    @Override
                    public Stream<String> list() {
                        return Stream.of(LAUNCH);
                    }

                    @Override
                    public void close() {}
                };
            }
        };
        ModuleFinder finder = new ModuleFinder() {
            @Override
            public Optional<ModuleReference> find(String name) {
                return NAME.equals(name) ? Optional.of(reference) : Optional.empty();
            }

            @Override
            public Set<ModuleReference> findAll() {
                return Set.of(reference);
            }
        };
        Configuration cf = ModuleLayer.boot().configuration().resolve(finder, ModuleFinder.of(), Set.of(NAME));
        return ModuleLayer.boot().defineModulesWithOneLoader(cf, ClassLoader.getSystemClassLoader());
    }
}
