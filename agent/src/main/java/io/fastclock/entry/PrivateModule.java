package io.fastclock.entry;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.lang.instrument.Instrumentation;
import java.lang.module.Configuration;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReader;
import java.lang.module.ModuleReference;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.function.Function;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.stream.Stream;

/**
 * Defines the agent's own module, {@value #NAME}, from fastclock.jar's {@code .classdata} resources
 * (under {@value #CLASSES}), in a module layer and class loader of its own.
 *
 * <p>Why: classes on the class path share the application's unnamed module, which is open to all,
 * so anything the agent holds there (its Instrumentation, the JDK packages exported to it) would be
 * the application's too. A named module in a private layer exports and opens nothing to the
 * application, and the application has no class loader that can define classes into it; what the
 * JDK exports to this module stays with it. Its classes are stored as {@code .classdata} so that no
 * class loader of the application can load a copy of them from the jar on its class path.
 *
 * <p>The only way in is the module's one service provider, found through {@link ServiceLoader}
 * (no package of the module is exported for it); that provider checks its caller's Instrumentation
 * again.
 */
final class PrivateModule {
    static final String NAME = "io.fastclock.agent";
    static final String CLASSES = "META-INF/fastclock/classes/";
    static final String CLASS_SUFFIX = ".classdata";
    /** The packages under {@value #CLASSES}, one per line, listed when the jar is built (agent/pom.xml). */
    static final String PACKAGES = "META-INF/fastclock/packages";
    /** The boot runtime: defined by the agent into the boot class loader, never into this module. */
    static final String BOOT_PACKAGE = "io/fastclock/runtime/";
    /** Modules the agent uses where the JVM has them; none is required to start. */
    private static final String[] OPTIONAL = {"java.instrument", "java.management", "jdk.jfr", "jdk.attach", "java.logging",
        "jdk.management", "jdk.unsupported"};

    private final ModuleLayer.Controller controller;

    private PrivateModule(ModuleLayer.Controller controller) {
        this.controller = controller;
    }

    /**
     * @param commandLine {@code java -jar fastclock.jar}: the boot runtime is then defined by a loader
     *     of its own (there is no Instrumentation to put it in the boot loader), and native access is
     *     enabled for the module from here (the launcher gave it to the jar's unnamed module)
     */
    static PrivateModule define(boolean commandLine) throws IOException {
        File jar = AgentEntry.ownJar();
        Set<String> packages;
        String version;
        try (JarFile jf = new JarFile(jar, false)) {
            packages = packages(jar, jf);
            version = buildVersion(jf);
        }
        if (packages.isEmpty()) {
            throw new IOException(jar + " holds no agent classes under " + CLASSES);
        }
        ModuleDescriptor.Builder builder = ModuleDescriptor.newModule(NAME)
                .packages(packages)
                .uses(Function.class.getName())
                .provides(Function.class.getName(), Collections.singletonList("io.fastclock.agent.Launch"));
        if (version != null) {
            try {
                builder.version(version); // what status, list, the MBean and --version show
            } catch (IllegalArgumentException e) {
                // not a module version: the agent shows "unknown"
            }
        }
        for (String optional : OPTIONAL) {
            if (ModuleLayer.boot().findModule(optional).isPresent()) {
                builder.requires(optional);
            }
        }
        // Qualified exports, so that JMX and JFR can use the MBean and the events (to JDK modules only).
        Set<String> jdkUsers = new HashSet<>();
        for (String user : new String[] {"java.management", "jdk.jfr"}) {
            if (ModuleLayer.boot().findModule(user).isPresent()) {
                jdkUsers.add(user);
            }
        }
        if (!jdkUsers.isEmpty()) {
            builder.exports(Collections.emptySet(), "io.fastclock.observe", jdkUsers);
        }
        ModuleDescriptor descriptor = builder.build();
        ModuleReference reference = new JarModuleReference(descriptor, jar);
        SingleModuleFinder finder = new SingleModuleFinder(reference);
        Configuration cf = Configuration.resolve(finder, Collections.singletonList(ModuleLayer.boot().configuration()),
                ModuleFinder.of(), Collections.singleton(NAME));
        ClassLoader parent = commandLine ? new BootRuntimeLoader(jar) : null;
        ModuleLayer.Controller controller = ModuleLayer.defineModulesWithOneLoader(cf,
                Collections.singletonList(ModuleLayer.boot()), parent);
        return new PrivateModule(controller);
    }

    /** The module's packages: the jar's list, less the boot runtime's package. */
    private static Set<String> packages(File jar, JarFile jf) throws IOException {
        Set<String> packages = new HashSet<>();
        JarEntry list = jf.getJarEntry(PACKAGES);
        if (list == null) {
            throw new IOException(jar + " has no " + PACKAGES + " (is another copy of " + AgentEntry.class.getName()
                    + " on the class path before fastclock.jar?)");
        }
        String text;
        try (InputStream in = jf.getInputStream(list)) {
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        for (String line : text.split("\n")) {
            String pkg = line.trim();
            if (!pkg.isEmpty() && !(pkg + "/").equals(BOOT_PACKAGE)) {
                packages.add(pkg.replace('/', '.'));
            }
        }
        return packages;
    }

    /** The manifest's Implementation-Version, as the build wrote it; null without one. */
    private static String buildVersion(JarFile jf) throws IOException {
        Manifest manifest = jf.getManifest();
        return manifest == null ? null : manifest.getMainAttributes().getValue("Implementation-Version");
    }

    /**
     * Starts the agent in the module.
     *
     * @param propertiesAtPremain on start=background's thread, the fastclock.* system properties premain
     *     saw; else null
     */
    void launchAgent(String entryPoint, String agentArgs, Instrumentation inst, Map<String, String> propertiesAtPremain)
            throws Exception {
        launch(agentHandoff(entryPoint, agentArgs, inst, propertiesAtPremain));
    }

    /** Runs {@code java -jar fastclock.jar}'s command in the module. */
    void launchCommandLine(String[] commandLine) throws Exception {
        enableNativeAccess(controller.layer().findModule(NAME).orElseThrow(IllegalStateException::new));
        launch(commandLineHandoff(commandLine));
    }

    /**
     * The hand-off's one layout, which io.fastclock.agent.Handoff reads (the two share no class but the
     * JDK's; HandoffTest holds them together): entry point, arguments, Instrumentation, properties.
     */
    static Object[] agentHandoff(String entryPoint, String agentArgs, Instrumentation inst, Map<String, String> propertiesAtPremain) {
        return new Object[] {entryPoint, agentArgs, inst, propertiesAtPremain};
    }

    static Object[] commandLineHandoff(String[] commandLine) {
        return new Object[] {AgentEntry.MAIN, commandLine, null, null};
    }

    /** Calls the module's one entry, its service provider io.fastclock.agent.Launch. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private void launch(Object[] handoff) {
        Module module = controller.layer().findModule(NAME).orElseThrow(IllegalStateException::new);
        Iterator<Function> providers = ServiceLoader.load(controller.layer(), Function.class).iterator();
        while (providers.hasNext()) {
            Function<Object[], Object> provider = providers.next();
            if (provider.getClass().getModule() == module) {
                provider.apply(handoff);
                return;
            }
        }
        throw new IllegalStateException("the agent module has no entry");
    }

    /**
     * JDK 24+: the command line loads libfastclock with System.load from the agent's module, which
     * JDK 24+ flags unless that module has native access. The jar's manifest gives it to the class
     * path (Enable-Native-Access: ALL-UNNAMED, for java -jar only), so this class may pass it on.
     * Never called under -javaagent, where the manifest attribute does not apply.
     */
    private void enableNativeAccess(Module module) {
        if (Runtime.version().feature() < 24) {
            // Before 24 System.load is not flagged, and on 21 enableNativeAccess itself is restricted
            // (the manifest attribute that grants the jar native access arrived in 22).
            return;
        }
        try {
            ModuleLayer.Controller.class.getMethod("enableNativeAccess", Module.class).invoke(controller, module);
        } catch (NoSuchMethodException e) {
            // JDK 21 and older: no native-access checks
        } catch (ReflectiveOperationException | RuntimeException e) {
            // the JVM then prints its own warning at System.load; nothing else changes
        }
    }

    /** A class's entry in the jar: its .classdata; any other resource: its own name. */
    static String entryName(String resource) {
        return resource.endsWith(".class")
                ? CLASSES + resource.substring(0, resource.length() - ".class".length()) + CLASS_SUFFIX
                : resource;
    }

    private static final class SingleModuleFinder implements ModuleFinder {
        private final ModuleReference reference;

        SingleModuleFinder(ModuleReference reference) {
            this.reference = reference;
        }

        @Override
        public Optional<ModuleReference> find(String name) {
            return NAME.equals(name) ? Optional.of(reference) : Optional.empty();
        }

        @Override
        public Set<ModuleReference> findAll() {
            return Collections.singleton(reference);
        }
    }

    private static final class JarModuleReference extends ModuleReference {
        private final File jar;

        JarModuleReference(ModuleDescriptor descriptor, File jar) {
            super(descriptor, jar.toURI());
            this.jar = jar;
        }

        @Override
        public ModuleReader open() throws IOException {
            return new JarModuleReader(jar);
        }
    }

    /** Reads classes from their .classdata entries; other resources (native library, JNA) as they are. */
    private static final class JarModuleReader implements ModuleReader {
        private final JarFile jarFile;
        private final URI jarUri;

        JarModuleReader(File jar) throws IOException {
            this.jarFile = new JarFile(jar, false);
            this.jarUri = jar.toURI();
        }

        @Override
        public Optional<URI> find(String name) {
            String entry = entryName(name);
            if (jarFile.getEntry(entry) == null) {
                return Optional.empty();
            }
            return Optional.of(URI.create("jar:" + jarUri + "!/" + entry));
        }

        @Override
        public Optional<InputStream> open(String name) throws IOException {
            JarEntry entry = jarFile.getJarEntry(entryName(name));
            return entry == null ? Optional.empty() : Optional.of(jarFile.getInputStream(entry));
        }

        @Override
        public Optional<ByteBuffer> read(String name) throws IOException {
            Optional<InputStream> in = open(name);
            if (!in.isPresent()) {
                return Optional.empty();
            }
            try (InputStream stream = in.get()) {
                return Optional.of(ByteBuffer.wrap(stream.readAllBytes()));
            }
        }

        @Override
        public Stream<String> list() {
            return Stream.empty();
        }

        @Override
        public void close() throws IOException {
            jarFile.close();
        }
    }

    /**
     * The command line's parent loader for the agent module: defines the boot runtime's classes
     * (io.fastclock.runtime) from the jar, which under -javaagent the agent defines in the boot loader.
     */
    private static final class BootRuntimeLoader extends ClassLoader {
        static {
            registerAsParallelCapable();
        }

        private final File jar;

        BootRuntimeLoader(File jar) {
            super("fastclock-runtime", ClassLoader.getPlatformClassLoader());
            this.jar = jar;
        }

        @Override
        protected Class<?> findClass(String name) throws ClassNotFoundException {
            if (!name.startsWith(BOOT_PACKAGE.replace('/', '.')) || name.indexOf('.', BOOT_PACKAGE.length()) >= 0) {
                throw new ClassNotFoundException(name);
            }
            try (JarFile jf = new JarFile(jar, false)) {
                JarEntry entry = jf.getJarEntry(entryName(name.replace('.', '/') + ".class"));
                if (entry == null) {
                    throw new ClassNotFoundException(name);
                }
                try (InputStream in = jf.getInputStream(entry)) {
                    byte[] bytes = in.readAllBytes();
                    return defineClass(name, bytes, 0, bytes.length);
                }
            } catch (IOException e) {
                throw new ClassNotFoundException(name, e);
            }
        }
    }
}
