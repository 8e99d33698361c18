package io.fastclock.nativelib;

import io.fastclock.runtime.MillisClock;

import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * The jna-coarse backend's loader: JNA in a class loader of its own, so that it can never clash with
 * (or stand in for) an application's JNA, and JNA's native stub loaded from a private directory
 * instead of JNA's shared, predictable {@code java.io.tmpdir/jna-<hash>}.
 *
 * <ul>
 *   <li>The JNA jar is nested in fastclock.jar ({@value #JAR_RESOURCE}); no com.sun.jna class is in
 *       the agent jar's root, so nothing of JNA is on the application's class path.</li>
 *   <li>It is copied, together with libjnidispatch for this platform taken out of it, by the code
 *       that copies libfastclock ({@link NativeLibraryExtractor.Copies}: under a root whose whole
 *       path is safe, a fresh owner-only directory, new files, no links followed, checked
 *       afterwards).</li>
 *   <li>A {@link PrivateLoader} over the copied jar defines JNA and the adapter
 *       {@value #ADAPTER} (whose bytes are kept under {@value #CLASSES_RESOURCE}, not in the agent
 *       jar's root), child-first for both packages; everything else, {@link MillisClock} included,
 *       comes from its parent, the loader of MillisClock (the boot loader under the agent).</li>
 *   <li>While JNA initialises, and only then, {@code jna.boot.library.path} points at the private
 *       directory and {@code jna.nosys}, {@code jna.noclasspath} and {@code jna.nounpack} are true, so
 *       JNA loads our copy or fails, never searching or unpacking anywhere else; and
 *       {@code jna.platform.library.path} is set, so that NativeLibrary does not run
 *       {@code ldconfig -p} to build a search path. Every property JNA reads or sets there is
 *       restored afterwards.</li>
 *   <li>The copies are deleted once loaded (the library stays mapped, the jar stays open).</li>
 * </ul>
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
                return MethodHandles.publicLookup().findStatic(adapter, "realtimeCoarseNanos",
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
     * @param parent   parent of the private loader: the loader of {@link MillisClock} (null = boot loader)
     */
    public static Result load(Path tempRoot, ClassLoader parent) {
        return load(ExtractionRoot.of(tempRoot), parent);
    }

    public static synchronized Result load(ExtractionRoot root, ClassLoader parent) {
        if (loaded == null) {
            loaded = loadFresh(root, parent);
        }
        return loaded;
    }

    /** Loads a new copy whatever this JVM loaded before; {@link #load} keeps the first. */
    static Result loadFresh(ExtractionRoot root, ClassLoader parent) {
        long start = System.nanoTime();
        PrivateLoader loader = null;
        try {
            byte[] adapterBytes = resourceBytes(CLASSES_RESOURCE + ADAPTER.replace('.', '/') + ".class");
            if (adapterBytes == null) {
                return new Result(null, null, "JNA is not bundled in this agent jar (" + CLASSES_RESOURCE + ")",
                        System.nanoTime() - start);
            }
            loader = extract(root, parent, true, Collections.singletonMap(ADAPTER, adapterBytes), ADAPTER);
            Class<?> adapter = Class.forName(ADAPTER, false, loader);
            MillisClock clock = (MillisClock) adapter.getDeclaredConstructor().newInstance();
            long before = System.currentTimeMillis();
            long read = clock.currentTimeMillis();
            if (Math.abs(read - before) > 1000) {
                loader.close();
                return new Result(null, null, "CLOCK_REALTIME_COARSE through JNA read " + read + ", the system clock "
                        + before, System.nanoTime() - start);
            }
            return new Result(clock, adapter, null, System.nanoTime() - start);
        } catch (NotOffered e) {
            return new Result(null, null, e.getMessage(), System.nanoTime() - start);
        } catch (InvocationTargetException e) {
            closeQuietly(loader);
            return new Result(null, null, "cannot use JNA: " + ExtractionRoot.printable(String.valueOf(e.getCause())),
                    System.nanoTime() - start);
        } catch (Throwable e) {
            // ExceptionInInitializerError, UnsatisfiedLinkError, IOException, ...: never past the agent.
            closeQuietly(loader);
            Throwable cause = e instanceof ExceptionInInitializerError && e.getCause() != null ? e.getCause() : e;
            return new Result(null, null, "cannot use JNA: " + ExtractionRoot.printable(cause.toString()),
                    System.nanoTime() - start);
        }
    }

    static final String JAR_FILE = "jna.jar";

    /**
     * The one way JNA gets out of this jar and into a loader, for {@link #load} and
     * {@link #privateLoader} alike: the jar and its stub copied ({@link #copyJna}), a new
     * {@link PrivateLoader} over the copy (also defining {@code adapters} and the classes under
     * {@code childFirstPrefixes}), and {@code first} initialised there with JNA's loading confined to
     * the copy ({@link #initialise}). The copies are deleted before it returns: the stub stays mapped,
     * and the jar open (a class is loaded from it first). On a failure the loader is closed.
     */
    private static PrivateLoader extract(ExtractionRoot root, ClassLoader parent, boolean inModule, Map<String, byte[]> adapters,
            String first, String... childFirstPrefixes) throws IOException, ClassNotFoundException {
        try (NativeLibraryExtractor.Copies copies = copyJna(root)) {
            Path jar = copies.dir.resolve(JAR_FILE);
            PrivateLoader loader = inModule
                    ? new PrivateLoader(null, JnaModule.define(jar, parent), parent, adapters, childFirstPrefixes)
                    : new PrivateLoader(jar.toUri().toURL(), null, parent, adapters, childFirstPrefixes);
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
            return extract(root, parent, false, Collections.emptyMap(), "com.sun.jna.Native", childFirstPrefixes);
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
