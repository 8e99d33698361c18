package io.fastclock.entry;

import java.io.ByteArrayInputStream;
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
    /**
     * The boot runtime's packages (io.fastclock.rewrite.RuntimePackages): defined by the agent into the
     * boot class loader, never into this module.
     */
    static final String[] RUNTIME_PACKAGES = {"io.fastclock.runtime", "io.fastclock.rewrite", "io.fastclock.boot"};
    /** Modules the agent uses where the JVM has them; none is required to start. */
    private static final String[] OPTIONAL = {"java.instrument", "java.management", "jdk.jfr", "jdk.attach", "java.logging",
        "jdk.management", "jdk.unsupported"};

    private final ModuleLayer.Controller controller;
    private final JarSnapshot jar;

    private PrivateModule(ModuleLayer.Controller controller, JarSnapshot jar) {
        this.controller = controller;
        this.jar = jar;
    }

    /**
     * @param commandLine {@code java -jar fastclock.jar}: the boot runtime is then defined by a loader
     *     of its own (there is no Instrumentation to put it in the boot loader), and native access is
     *     enabled for the module from here (the launcher gave it to the jar's unnamed module)
     */
    static PrivateModule define(boolean commandLine, JarSnapshot jar) throws IOException {
        Set<String> packages = packages(jar);
        String version = buildVersion(jar);
        if (packages.isEmpty()) {
            throw new IOException("fastclock.jar holds no agent classes under " + CLASSES);
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
        return new PrivateModule(controller, jar);
    }

    /** The module's packages: the jar's list, less the boot runtime's, which are never the module's. */
    private static Set<String> packages(JarSnapshot jar) throws IOException {
        byte[] list = jar.read(PACKAGES);
        if (list == null) {
            throw new IOException("fastclock.jar has no " + PACKAGES);
        }
        Set<String> packages = new HashSet<>();
        for (String line : new String(list, StandardCharsets.UTF_8).split("\n")) {
            String pkg = line.trim().replace('/', '.');
            if (!pkg.isEmpty() && !isRuntimePackage(pkg)) {
                packages.add(pkg);
            }
        }
        return packages;
    }

    static boolean isRuntimePackage(String pkg) {
        for (String runtime : RUNTIME_PACKAGES) {
            if (runtime.equals(pkg)) {
                return true;
            }
        }
        return false;
    }

    /** The manifest's Implementation-Version, as the build wrote it; null without one. */
    private static String buildVersion(JarSnapshot jar) throws IOException {
        byte[] manifest = jar.read(EntryState.MANIFEST);
        return manifest == null ? null : new Manifest(new ByteArrayInputStream(manifest)).getMainAttributes()
                .getValue("Implementation-Version");
    }

    /**
     * Starts the agent in the module.
     *
     * @param propertiesAtPremain on start=background's thread, the fastclock.* system properties premain
     *     saw; else null
     */
    void launchAgent(String entryPoint, String agentArgs, Instrumentation inst, Map<String, String> propertiesAtPremain)
            throws Exception {
        launch(agentHandoff(entryPoint, agentArgs, inst, propertiesAtPremain, jar));
    }

    /** Runs {@code java -jar fastclock.jar}'s command in the module. */
    void launchCommandLine(String[] commandLine) throws Exception {
        enableNativeAccess(controller.layer().findModule(NAME).orElseThrow(IllegalStateException::new));
        launch(commandLineHandoff(commandLine, jar));
    }

    /**
     * The hand-off's one layout, which io.fastclock.agent.Handoff reads (the two share no class but the
     * JDK's; HandoffTest holds them together): entry point, arguments, Instrumentation, properties, and
     * the jar as the entry read it (every class and resource the module loads comes from there).
     */
    static Object[] agentHandoff(String entryPoint, String agentArgs, Instrumentation inst, Map<String, String> propertiesAtPremain,
            Function<String, byte[]> jar) {
        return new Object[] {entryPoint, agentArgs, inst, propertiesAtPremain, jar};
    }

    static Object[] commandLineHandoff(String[] commandLine, Function<String, byte[]> jar) {
        return new Object[] {EntryLines.MAIN, commandLine, null, null, jar};
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

    /**
     * Opens one reader, for the module's class loader (which opens it as the module's first class loads,
     * before any code of the module runs, and keeps it), and forgets the jar then. The module's layer keeps
     * this reference in its configuration, which any class of the module leads to
     * ({@code getModule().getLayer().configuration()}), and this class's package is open: a reader it
     * still handed out, or the snapshot it held, would let application code holding a class of the module
     * (a hook of its own that the agent's thread calls, with a StackWalker) change the bytes of a class
     * the module has not loaded yet.
     */
    private static final class JarModuleReference extends ModuleReference {
        private JarSnapshot jar;

        /** Located at the jar's path, which the commands name to another JVM; nothing is read from it. */
        JarModuleReference(ModuleDescriptor descriptor, JarSnapshot jar) {
            super(descriptor, new java.io.File(jar.path()).toURI());
            this.jar = jar;
        }

        @Override
        public synchronized ModuleReader open() throws IOException {
            JarSnapshot once = jar;
            if (once == null) {
                throw new IOException("the module " + NAME + " is read by its own class loader alone");
            }
            jar = null;
            return new JarModuleReader(once);
        }
    }

    /**
     * Reads classes from their .classdata entries, other resources as they are, all from the entry's one
     * read of the jar. Gives no URIs: nothing is ever read again by a path.
     */
    private static final class JarModuleReader implements ModuleReader {
        private final JarSnapshot jar;

        JarModuleReader(JarSnapshot jar) {
            this.jar = jar;
        }

        @Override
        public Optional<URI> find(String name) {
            return Optional.empty();
        }

        @Override
        public Optional<InputStream> open(String name) throws IOException {
            Optional<ByteBuffer> bytes = read(name);
            return bytes.isPresent() ? Optional.of(new ByteArrayInputStream(bytes.get().array())) : Optional.empty();
        }

        @Override
        public Optional<ByteBuffer> read(String name) throws IOException {
            byte[] bytes = jar.read(JarSnapshot.entryName(name));
            return bytes == null ? Optional.empty() : Optional.of(ByteBuffer.wrap(bytes));
        }

        @Override
        public Stream<String> list() {
            return Stream.empty();
        }

        @Override
        public void close() {
            // nothing open: the bytes were read before main
        }
    }

    /**
     * The command line's parent loader for the agent module: defines the boot runtime's classes from the
     * jar, which under -javaagent the agent defines in the boot loader. In a JVM where the agent runs too
     * (JAVA_TOOL_OPTIONS), the boot loader's runtime answers first, and the command line uses its
     * exported package (the doctor reads its clocks, not its switch).
     */
    private static final class BootRuntimeLoader extends ClassLoader {
        static {
            registerAsParallelCapable();
        }

        private final JarSnapshot jar;

        BootRuntimeLoader(JarSnapshot jar) {
            super("fastclock-runtime", ClassLoader.getPlatformClassLoader());
            this.jar = jar;
        }

        @Override
        protected Class<?> findClass(String name) throws ClassNotFoundException {
            int dot = name.lastIndexOf('.');
            if (dot < 0 || !isRuntimePackage(name.substring(0, dot))) {
                throw new ClassNotFoundException(name);
            }
            try {
                byte[] bytes = jar.read(JarSnapshot.entryName(name.replace('.', '/') + ".class"));
                if (bytes == null) {
                    throw new ClassNotFoundException(name);
                }
                return defineClass(name, bytes, 0, bytes.length);
            } catch (IOException e) {
                throw new ClassNotFoundException(name, e);
            }
        }
    }
}
