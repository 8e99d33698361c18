package io.fastclock.nativelib;

import io.fastclock.runtime.MillisClock;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarInputStream;

/**
 * The jna-coarse backend's loader: JNA in a class loader of its own, so that it can never clash with
 * (or stand in for) an application's JNA, and JNA's native stub loaded from a private directory
 * instead of JNA's shared, predictable {@code java.io.tmpdir/jna-<hash>}.
 *
 * <ul>
 *   <li>The JNA jar is nested in fastclock.jar ({@value #JAR_RESOURCE}); no com.sun.jna class is in
 *       the agent jar's root, so nothing of JNA is on the application's class path. It is read, in
 *       memory, as the entry read it (the nested jar against the digest read at start).</li>
 *   <li>JNA and the adapter {@value #ADAPTER} (whose bytes are kept under {@value #CLASSES_RESOURCE})
 *       are two sealed named modules in a loader of their own ({@link JnaModule}), whose parent is the
 *       loader of MillisClock (the boot loader under the agent); JNA's cleaner never starts its
 *       thread.</li>
 *   <li>libjnidispatch for this platform, taken out of the jar, is copied by the code that copies
 *       libfastclock ({@link NativeLibraryExtractor.Copies}: under a root whose whole path is safe, a
 *       fresh owner-only directory, new files, no links followed, checked afterwards).</li>
 *   <li>While JNA initialises, and only then, {@code jna.boot.library.path} points at the private
 *       directory and {@code jna.nosys}, {@code jna.noclasspath} and {@code jna.nounpack} are true, so
 *       JNA loads our copy or fails, never searching or unpacking anywhere else; and
 *       {@code jna.platform.library.path} is set, so that NativeLibrary does not run
 *       {@code ldconfig -p} to build a search path. Every property JNA reads or sets there is
 *       restored afterwards.</li>
 *   <li>The copies are deleted once loaded (the library stays mapped).</li>
 * </ul>
 * The command line's attach uses JNA too, from a {@link PrivateLoader} over a copy of the jar
 * ({@link #privateLoader}).
 * Loaded at most once per JVM; never touched when libfastclock loads (unless jna-coarse is named).
 */
public final class JnaLoader {
    public static final String JAR_RESOURCE = "/META-INF/fastclock/jna/jna.jar";
    public static final String CLASSES_RESOURCE = "/META-INF/fastclock/jna/classes/";
    public static final String ADAPTER = "io.fastclock.jna.JnaCoarseMillis";

    /**
     * What JNA 5.17's Native.loadNativeDispatchLibrary and NativeLibrary's initialiser read, and what
     * Native's initialiser sets.
     */
    static final String[] JNA_PROPERTIES = {"jna.boot.library.path", "jna.boot.library.name", "jna.nosys",
        "jna.noclasspath", "jna.nounpack", "jna.platform.library.path", "jnidispatch.path", "jna.loaded"};

    private static Result loaded;

    private JnaLoader() {}

    /** The outcome: a clock, or the reason there is none. */
    public static final class Result {
        public final MillisClock clock;
        public final String problem;
        public final long elapsedNanos;
        private final Class<?> adapter;

        Result(MillisClock clock, Class<?> adapter, String problem, long elapsedNanos) {
            this.clock = clock;
            this.adapter = adapter;
            this.problem = clock == null ? problem : null;
            this.elapsedNanos = elapsedNanos;
        }

        public boolean available() {
            return clock != null;
        }

        /** clock_getres(CLOCK_REALTIME_COARSE) through JNA, or -1. */
        public long coarseResolutionNanos() {
            Object v = call("coarseResolutionNanos", new Class<?>[0]);
            return v instanceof Long ? (Long) v : -1;
        }

        /** A handle of type ()long on the adapter's realtimeCoarseNanos() (CLOCK_REALTIME_COARSE in ns, or -1), or null. */
        public MethodHandle realtimeCoarseNanos() {
            if (adapter == null) {
                return null;
            }
            try {
                // This module's lookup: the adapter's package is exported to it alone (JnaModule).
                return MethodHandles.lookup().findStatic(adapter, "realtimeCoarseNanos",
                        MethodType.methodType(long.class));
            } catch (ReflectiveOperationException | RuntimeException e) {
                return null;
            }
        }

        /** ns per call of clock_gettime(clockId) through JNA (see JnaCoarseMillis.nanosPerCall), or NaN. */
        public double nanosPerCall(int clockId, int batches, int callsPerBatch) {
            Object v = call("nanosPerCall", new Class<?>[] {int.class, int.class, int.class}, clockId, batches, callsPerBatch);
            return v instanceof Double ? (Double) v : Double.NaN;
        }

        private Object call(String name, Class<?>[] types, Object... args) {
            if (adapter == null) {
                return null;
            }
            try {
                Method m = adapter.getMethod(name, types);
                return m.invoke(null, args);
            } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
                return null;
            }
        }
    }

    /**
     * @param root     where to create the private directory (java.io.tmpdir, or where it says instead)
     * @param parent   parent of JNA's loader: the loader of {@link MillisClock} (null = boot loader)
     */
    public static Result load(Path tempRoot, ClassLoader parent) {
        return load(ExtractionRoot.of(tempRoot), parent, NO_EXPORT_NEEDED);
    }

    /**
     * @param runtimeExportedTo makes the runtime's MillisClock package reachable from a module (the
     *     adapter's), where it is not already (JDK 11 exports it to every unnamed module only)
     */
    public static synchronized Result load(ExtractionRoot root, ClassLoader parent, Consumer<Module> runtimeExportedTo) {
        if (loaded == null) {
            loaded = loadFresh(root, parent, runtimeExportedTo);
        }
        return loaded;
    }

    /** Where the runtime's package is exported to every module (JDK 17+, or the command line's own copy). */
    public static final Consumer<Module> NO_EXPORT_NEEDED = new Consumer<Module>() {
        @Override
        public void accept(Module module) {
            // nothing to do
        }
    };

    /** Loads a new copy whatever this JVM loaded before; {@link #load} keeps the first. */
    static Result loadFresh(ExtractionRoot root, ClassLoader parent, Consumer<Module> runtimeExportedTo) {
        long start = System.nanoTime();
        try {
            byte[] adapterBytes = resourceBytes(CLASSES_RESOURCE + ADAPTER.replace('.', '/') + ".class");
            if (adapterBytes == null) {
                return new Result(null, null, "JNA is not bundled in this agent jar (" + CLASSES_RESOURCE + ")",
                        System.nanoTime() - start);
            }
            Class<?> adapter = sealed(root, parent, adapterBytes, runtimeExportedTo);
            MillisClock clock = (MillisClock) adapter.getDeclaredConstructor().newInstance();
            long before = System.currentTimeMillis();
            long read = clock.currentTimeMillis();
            if (Math.abs(read - before) > 1000) {
                return new Result(null, null, "CLOCK_REALTIME_COARSE through JNA read " + read + ", the system clock "
                        + before, System.nanoTime() - start);
            }
            return new Result(clock, adapter, null, System.nanoTime() - start);
        } catch (NotOffered e) {
            return new Result(null, null, e.getMessage(), System.nanoTime() - start);
        } catch (InvocationTargetException e) {
            return new Result(null, null, "cannot use JNA: " + ExtractionRoot.printable(String.valueOf(e.getCause())),
                    System.nanoTime() - start);
        } catch (Throwable e) {
            // ExceptionInInitializerError, UnsatisfiedLinkError, IOException, ...: never past the agent.
            Throwable cause = e instanceof ExceptionInInitializerError && e.getCause() != null ? e.getCause() : e;
            return new Result(null, null, "cannot use JNA: " + ExtractionRoot.printable(cause.toString()),
                    System.nanoTime() - start);
        }
    }

    /**
     * JNA and the adapter as the sealed modules of {@link JnaModule}, from the nested jar in memory, its
     * native stub copied alone into a private directory ({@link NativeLibraryExtractor.Copies}, deleted
     * once loaded), JNA's cleaner kept from starting a thread, and the adapter initialised (JNA with it)
     * with JNA's loading confined to that directory ({@link #initialise}).
     *
     * @return the adapter's class
     */
    private static Class<?> sealed(ExtractionRoot root, ClassLoader parent, byte[] adapterBytes,
            Consumer<Module> runtimeExportedTo) throws IOException, ReflectiveOperationException {
        String platform = jnaPlatform();
        if (platform == null) {
            throw new NotOffered("JNA is bundled for 64-bit Linux on x86_64 and aarch64 only, not "
                    + System.getProperty("os.name") + " " + System.getProperty("os.arch"));
        }
        byte[] jar = resourceBytes(JAR_RESOURCE);
        if (jar == null) {
            throw new NotOffered("JNA is not bundled in this agent jar (" + JAR_RESOURCE + ")");
        }
        String stubEntry = "com/sun/jna/" + platform + "/" + System.mapLibraryName("jnidispatch");
        Map<String, byte[]> jnaClasses = new HashMap<>();
        byte[] stub = null;
        try (JarInputStream in = new JarInputStream(new ByteArrayInputStream(jar), false)) {
            for (JarEntry e; (e = in.getNextJarEntry()) != null; ) {
                String name = e.getName();
                if (name.equals(stubEntry)) {
                    stub = in.readAllBytes();
                } else if (name.endsWith(".class") && !name.startsWith("META-INF/")) {
                    jnaClasses.put(name, in.readAllBytes());
                }
            }
        }
        if (stub == null) {
            throw new NotOffered("the bundled JNA has no " + stubEntry);
        }
        Map<String, byte[]> adapterClasses = new HashMap<>();
        adapterClasses.put(ADAPTER.replace('.', '/') + ".class", adapterBytes);
        JnaModule modules = JnaModule.define(jnaClasses, adapterClasses, parent);
        Module agent = JnaLoader.class.getModule();
        Module runtime = MillisClock.class.getModule();
        modules.adapterReads(runtime);
        runtimeExportedTo.accept(modules.adapter());
        modules.openTo(agent);
        agent.addReads(modules.adapter());
        modules.enableNativeAccess();
        ClassLoader loader = modules.loader();
        keepCleanerThreadless(loader);
        try (NativeLibraryExtractor.Copies copies = new NativeLibraryExtractor.Copies(root)) {
            copies.add(System.mapLibraryName("jnidispatch"), stub, "r-x------");
            return initialise(loader, copies.dir, ADAPTER);
        }
    }

    /**
     * JNA's cleaner starts a thread, of JNA's class, for the JVM's life once anything registers with it
     * (the process's library does): whoever got hold of that thread held JNA's loader. This JNA frees
     * nothing (it binds the process's own symbols, kept for the JVM's life), so its cleaner is given a
     * thread that never starts, and it starts none.
     */
    private static void keepCleanerThreadless(ClassLoader loader) throws ReflectiveOperationException {
        Class<?> cleaner = Class.forName("com.sun.jna.internal.Cleaner", true, loader);
        Object instance = cleaner.getMethod("getCleaner").invoke(null);
        Field thread = cleaner.getDeclaredField("cleanerThread");
        thread.setAccessible(true);
        synchronized (instance) {
            if (thread.get(instance) == null) {
                thread.set(instance, new Thread("fastclock-jna-cleaner (never started)"));
            }
        }
    }

    static final String JAR_FILE = "jna.jar";

    /**
     * JNA for the command line's attach ({@link #privateLoader}): the jar and its stub copied
     * ({@link #copyJna}), a new {@link PrivateLoader} over the copy (also defining {@code adapters} and
     * the classes under {@code childFirstPrefixes}), and {@code first} initialised there with JNA's
     * loading confined to the copy ({@link #initialise}). The copies are deleted before it returns: the
     * stub stays mapped, and the jar open (a class is loaded from it first). On a failure the loader is
     * closed. (An agent's JNA is {@link #sealed}.)
     */
    private static PrivateLoader extract(ExtractionRoot root, ClassLoader parent, Map<String, byte[]> adapters,
            String first, String... childFirstPrefixes) throws IOException, ClassNotFoundException {
        try (NativeLibraryExtractor.Copies copies = copyJna(root)) {
            Path jar = copies.dir.resolve(JAR_FILE);
            PrivateLoader loader = new PrivateLoader(jar.toUri().toURL(), null, parent, adapters, childFirstPrefixes);
            try {
                initialise(loader, copies.dir, first);
                // Open the jar now: once the copy is deleted below, the open file is what remains.
                loader.loadClass("com.sun.jna.Library");
                return loader;
            } catch (ClassNotFoundException | RuntimeException | Error e) {
                closeQuietly(loader);
                throw e;
            }
        }
    }

    /**
     * The bundled JNA jar and its native stub for this platform, copied into one fresh private
     * directory (see {@link NativeLibraryExtractor}). Closing it deletes the copies (once loaded, the
     * stub stays mapped and the jar open).
     */
    static NativeLibraryExtractor.Copies copyJna(ExtractionRoot root) throws IOException {
        String platform = jnaPlatform();
        if (platform == null) {
            throw new NotOffered("JNA is bundled for 64-bit Linux on x86_64 and aarch64 only, not "
                    + System.getProperty("os.name") + " " + System.getProperty("os.arch"));
        }
        byte[] jar = resourceBytes(JAR_RESOURCE);
        if (jar == null) {
            throw new NotOffered("JNA is not bundled in this agent jar (" + JAR_RESOURCE + ")");
        }
        NativeLibraryExtractor.Copies copies = new NativeLibraryExtractor.Copies(root);
        try {
            Path copy = copies.add(JAR_FILE, jar, "r--------");
            String stubEntry = "com/sun/jna/" + platform + "/" + System.mapLibraryName("jnidispatch");
            byte[] stub;
            try (JarFile jarFile = new JarFile(copy.toFile(), false)) {
                JarEntry entry = jarFile.getJarEntry(stubEntry);
                if (entry == null) {
                    throw new NotOffered("the bundled JNA has no " + stubEntry);
                }
                try (InputStream in = jarFile.getInputStream(entry)) {
                    stub = in.readAllBytes();
                }
            }
            copies.add(System.mapLibraryName("jnidispatch"), stub, "r-x------");
            return copies;
        } catch (IOException | RuntimeException e) {
            copies.close();
            throw e;
        }
    }

    /** This jar or platform has no JNA to offer: said as it is, not as a failure to use it. */
    static final class NotOffered extends IOException {
        private static final long serialVersionUID = 1L;

        NotOffered(String message) {
            super(message);
        }
    }

    /** Initialises {@code className} (and with it JNA) with JNA's loading confined to {@code dir}. */
    private static Class<?> initialise(ClassLoader loader, Path dir, String className) throws ClassNotFoundException {
        Map<String, String> saved = new LinkedHashMap<>();
        for (String key : JNA_PROPERTIES) {
            saved.put(key, System.getProperty(key));
        }
        try {
            System.setProperty("jna.boot.library.path", dir.toString());
            System.clearProperty("jna.boot.library.name");
            System.setProperty("jna.nosys", "true");
            System.setProperty("jna.noclasspath", "true");
            System.setProperty("jna.nounpack", "true");
            // Set, NativeLibrary's initialiser skips building the system search path, which on Linux
            // runs "/sbin/ldconfig -p" as a child process. The adapter binds to the process's own
            // symbols (NativeLibrary.getProcess()), so no search path is ever needed.
            System.setProperty("jna.platform.library.path", dir.toString());
            return Class.forName(className, true, loader);
        } finally {
            for (Map.Entry<String, String> e : saved.entrySet()) {
                if (e.getValue() == null) {
                    System.clearProperty(e.getKey());
                } else {
                    System.setProperty(e.getKey(), e.getValue());
                }
            }
        }
    }

    /**
     * The same private JNA for another job of fastclock.jar's own (the attach command's emulated
     * HotSpot attach through Byte Buddy): a fresh {@link PrivateLoader} over a private copy of the
     * nested JNA, with JNA initialised under the same confinement as {@link #load}. Classes whose
     * names start with one of {@code childFirstPrefixes} are defined by that loader too, from their bytes in
     * {@code parent}'s resources, so that their references to {@code com.sun.jna} resolve to the
     * private copy. The copies on disk are deleted before it returns.
     */
    public static ClassLoader privateLoader(ExtractionRoot root, ClassLoader parent, String... childFirstPrefixes) throws IOException {
        try {
            // On the command line only, where the launcher gives the class path native access (the jar's manifest).
            return extract(root, parent, Collections.emptyMap(), "com.sun.jna.Native", childFirstPrefixes);
        } catch (ClassNotFoundException | LinkageError e) {
            throw new IOException("cannot use JNA: " + ExtractionRoot.printable(e.toString()), e);
        }
    }

    /**
     * A loader like {@link #privateLoader} but without JNA: for a JVM whose jdk.attach does the
     * attach, so that JNA is never extracted or loaded there.
     */
    public static ClassLoader loaderWithoutJna(ClassLoader parent, String... childFirstPrefixes) {
        return new PrivateLoader(null, null, parent, Collections.emptyMap(), childFirstPrefixes);
    }

    /** JNA's resource prefix for this platform, or null where we do not offer it. */
    static String jnaPlatform() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        if (!os.startsWith("linux")) {
            return null;
        }
        if (arch.equals("amd64") || arch.equals("x86_64")) {
            return "linux-x86-64";
        }
        if (arch.equals("aarch64") || arch.equals("arm64")) {
            return "linux-aarch64";
        }
        return null;
    }

    private static byte[] resourceBytes(String name) throws IOException {
        return AgentResources.read(name.substring(1));
    }

    private static void closeQuietly(URLClassLoader loader) {
        if (loader != null) {
            try {
                loader.close();
            } catch (IOException ignored) {
                // nothing else holds it
            }
        }
    }

    /**
     * Child-first for JNA and the adapter (so neither can ever come from the application's or the
     * agent's class path), parent-first for everything else. JNA comes from the jar this loader
     * reads, or from {@code jnaModule}'s loader where JNA is a module of its own ({@link JnaModule}).
     */
    static final class PrivateLoader extends URLClassLoader {
        static {
            ClassLoader.registerAsParallelCapable();
        }

        private final Map<String, byte[]> adapters;
        /** Classes also defined here, from the parent's resources. */
        private final String[] childFirstPrefixes;
        /** Where com.sun.jna comes from when it is not this loader's jar, else null. */
        private final ClassLoader jnaModule;

        PrivateLoader(URL jar, ClassLoader jnaModule, ClassLoader parent, Map<String, byte[]> adapters,
                String... childFirstPrefixes) {
            super(jar == null ? new URL[0] : new URL[] {jar}, parent);
            this.jnaModule = jnaModule;
            this.adapters = adapters;
            this.childFirstPrefixes = childFirstPrefixes.clone();
        }

        private boolean fromParentResources(String name) {
            for (String prefix : childFirstPrefixes) {
                if (name.startsWith(prefix)) {
                    return true;
                }
            }
            return false;
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            boolean fromParentResources = fromParentResources(name);
            if (jnaModule != null && name.startsWith("com.sun.jna.")) {
                return jnaModule.loadClass(name);
            }
            if (!name.startsWith("com.sun.jna.") && !name.startsWith("io.fastclock.jna.") && !fromParentResources) {
                return super.loadClass(name, resolve);
            }
            synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                if (c == null) {
                    byte[] bytes = fromParentResources ? parentResourceBytes(name) : adapters.get(name);
                    c = bytes != null ? defineClass(name, bytes, 0, bytes.length) : findClass(name);
                }
                if (resolve) {
                    resolveClass(c);
                }
                return c;
            }
        }

        private byte[] parentResourceBytes(String className) throws ClassNotFoundException {
            try {
                byte[] bytes = AgentResources.readClasses(new String[] {className.replace('.', '/') + ".class"})[0];
                if (bytes == null) {
                    throw new ClassNotFoundException(className);
                }
                return bytes;
            } catch (IOException e) {
                throw new ClassNotFoundException(className, e);
            }
        }
    }
}
