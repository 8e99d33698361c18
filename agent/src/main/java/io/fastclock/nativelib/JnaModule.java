package io.fastclock.nativelib;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.module.Configuration;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReader;
import java.lang.module.ModuleReference;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The jna-coarse backend's JNA and its adapter as two named modules of their own, in a layer and loader
 * of their own, from bytes in memory (the nested jar as the entry read it), with descriptors of
 * fastclock's: {@value #JNA} exports its API to {@value #ADAPTER} alone and opens nothing, and the
 * adapter exports nothing but to JNA (which looks its native methods up) and to the agent's module.
 *
 * <p>Why: JNA's jar as an automatic module exports and opens every package to everyone, with native
 * access: a class-path class that got its loader (from JNA's cleaner thread, say) could call any C
 * function through it, where the JVM keeps native code from that class. Here its packages are reachable
 * by the adapter alone, and native access (JDK 24+: System.load flags modules without it) goes to these
 * two modules alone; every unnamed module shares one flag, which the application's class path would
 * get too.
 */
final class JnaModule {
    static final String JNA = "com.sun.jna";
    static final String ADAPTER = "io.fastclock.jna";

    private final ModuleLayer.Controller controller;

    private JnaModule(ModuleLayer.Controller controller) {
        this.controller = controller;
    }

    /**
     * @param jnaClasses JNA's class files by resource name ({@code com/sun/jna/Native.class}); taken
     *     from the map as they are defined
     * @param adapterClasses the adapter's, likewise
     * @param parent the loader of the runtime's MillisClock (the boot loader under the agent)
     */
    static JnaModule define(Map<String, byte[]> jnaClasses, Map<String, byte[]> adapterClasses, ClassLoader parent)
            throws IOException {
        Set<String> jnaPackages = packagesOf(jnaClasses);
        if (!jnaPackages.contains(JNA)) {
            throw new IOException("the bundled JNA jar has no " + JNA + " package");
        }
        ModuleDescriptor.Builder jna = ModuleDescriptor.newModule(JNA).packages(jnaPackages)
                .exports(Collections.emptySet(), JNA, Collections.singleton(ADAPTER));
        // JNA logs through java.util.logging, and names AWT types in Native's methods (reflection on Native
        // fails to link them without reading java.desktop, where the runtime has it).
        for (String needed : new String[] {"java.logging", "java.desktop"}) {
            if (ModuleLayer.boot().findModule(needed).isPresent()) {
                jna.requires(needed);
            }
        }
        ModuleDescriptor adapter = ModuleDescriptor.newModule(ADAPTER).packages(packagesOf(adapterClasses)).requires(JNA)
                .exports(Collections.emptySet(), ADAPTER, Collections.singleton(JNA)).build();
        Map<String, ModuleReference> references = new HashMap<>();
        references.put(JNA, new InMemory(jna.build(), jnaClasses));
        references.put(ADAPTER, new InMemory(adapter, adapterClasses));
        Configuration cf = ModuleLayer.boot().configuration().resolve(new Finder(references), ModuleFinder.of(),
                Arrays.asList(JNA, ADAPTER));
        return new JnaModule(ModuleLayer.defineModulesWithOneLoader(cf, Collections.singletonList(ModuleLayer.boot()), parent));
    }

    Module jna() {
        return controller.layer().findModule(JNA).orElseThrow(IllegalStateException::new);
    }

    Module adapter() {
        return controller.layer().findModule(ADAPTER).orElseThrow(IllegalStateException::new);
    }

    ClassLoader loader() {
        return adapter().getClassLoader();
    }

    /** The adapter reads {@code module} (the runtime's, whose MillisClock it extends). */
    void adapterReads(Module module) {
        controller.addReads(adapter(), module);
    }

    /** {@code to} (the agent's module) may use the adapter, and reflect into JNA's internal package. */
    void openTo(Module to) {
        controller.addExports(adapter(), ADAPTER, to);
        controller.addOpens(jna(), JNA + ".internal", to);
    }

    /**
     * JDK 24+ only: before that System.load is not flagged, and on 22 and 23 enableNativeAccess is
     * itself a restricted method this agent's module has no native access to call.
     */
    void enableNativeAccess() {
        if (Runtime.version().feature() < 24) {
            return;
        }
        for (Module m : new Module[] {jna(), adapter()}) {
            try {
                ModuleLayer.Controller.class.getMethod("enableNativeAccess", Module.class).invoke(controller, m);
            } catch (ReflectiveOperationException | RuntimeException e) {
                // the JVM then prints its own warning when JNA loads its stub; nothing else changes
            }
        }
    }

    private static Set<String> packagesOf(Map<String, byte[]> classes) {
        Set<String> out = new HashSet<>();
        for (String name : classes.keySet()) {
            int slash = name.lastIndexOf('/');
            if (name.endsWith(".class") && slash > 0 && !name.startsWith("META-INF/")) {
                out.add(name.substring(0, slash).replace('/', '.'));
            }
        }
        return out;
    }

    private static final class Finder implements ModuleFinder {
        private final Map<String, ModuleReference> references;

        Finder(Map<String, ModuleReference> references) {
            this.references = references;
        }

        @Override
        public Optional<ModuleReference> find(String name) {
            return Optional.ofNullable(references.get(name));
        }

        @Override
        public Set<ModuleReference> findAll() {
            return new HashSet<>(references.values());
        }
    }

    /** A module whose class files are in memory, each handed out once (the loader defines it then). */
    private static final class InMemory extends ModuleReference {
        private final Map<String, byte[]> classes;

        InMemory(ModuleDescriptor descriptor, Map<String, byte[]> classes) {
            super(descriptor, null);
            this.classes = classes;
        }

        @Override
        public ModuleReader open() {
            return new ModuleReader() {
                @Override
                public Optional<URI> find(String name) {
                    return Optional.empty();
                }

                @Override
                public Optional<InputStream> open(String name) {
                    Optional<ByteBuffer> bytes = read(name);
                    return bytes.isPresent() ? Optional.of(new ByteArrayInputStream(bytes.get().array())) : Optional.empty();
                }

                @Override
                public Optional<ByteBuffer> read(String name) {
                    byte[] bytes;
                    synchronized (classes) {
                        bytes = classes.remove(name);
                    }
                    return bytes == null ? Optional.empty() : Optional.of(ByteBuffer.wrap(bytes));
                }

                @Override
                public Stream<String> list() {
                    return Stream.empty();
                }

                @Override
                public void close() {
                    // nothing open
                }
            };
        }
    }
}
