package io.fastclock.rewrite;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;

/**
 * Rewrites every class of the running JDK's runtime image (jrt:/, about 26k classes, some 200 of
 * them clock callers) and of every jar in the local Maven repository (ASM, JUnit, Maven and its
 * plugins...) and checks that the rewrite is invisible except for the swapped owners: same text once
 * mapped back, same CheckClassAdapter verdict, same result when a sample is defined and linked by the
 * JVM (which verifies the bytecode and its stack maps).
 */
class CorpusRewriteTest {
    private static final int DEFINE_SAMPLE = 300;

    static final class Rewritten {
        final Path jar;
        final String className;
        final boolean versioned;
        final byte[] original;
        final byte[] rewritten;
        final int sites;

        Rewritten(Path jar, String className, boolean versioned, byte[] original, byte[] rewritten, int sites) {
            this.jar = jar;
            this.className = className;
            this.versioned = versioned;
            this.original = original;
            this.rewritten = rewritten;
            this.sites = sites;
        }
    }

    @Test
    void rewritesTheRuntimeImageAndTheLocalMavenRepository() throws Exception {
        long t0 = System.nanoTime();
        Path repo = Paths.get(System.getProperty("user.home"), ".m2", "repository");
        Assumptions.assumeTrue(Files.isDirectory(repo), "no local Maven repository at " + repo);
        List<Path> jars;
        try (Stream<Path> s = Files.walk(repo)) {
            // Our own artifacts (after a local `mvn install`) already call FastClock: not a corpus.
            Path own = repo.resolve("io").resolve("fastclock");
            jars = s.filter(p -> p.toString().endsWith(".jar") && Files.isRegularFile(p) && !p.startsWith(own)).sorted()
                    .collect(Collectors.toList());
        }

        long examined = 0;
        long mentionsText = 0;
        long mentionsClass = 0;
        long unreadable = 0;
        long prefilterMisses = 0;
        long scanNanos = 0;
        long rewriteNanos = 0;
        long rewriteBytes = 0;
        long totalSites = 0;
        long parseOnlyNanos = 0;
        long parsedOnly = 0;
        List<Rewritten> rewritten = new ArrayList<>();
        List<ClassFile> corpus = new ArrayList<>(runtimeImage());
        long jdkClasses = corpus.size();
        for (Path jar : jars) {
            try (ZipFile zip = new ZipFile(jar.toFile())) {
                Enumeration<? extends ZipEntry> entries = zip.entries();
                while (entries.hasMoreElements()) {
                    ZipEntry e = entries.nextElement();
                    if (e.getName().endsWith(".class") && !e.isDirectory()) {
                        try (InputStream in = zip.getInputStream(e)) {
                            corpus.add(new ClassFile(jar, e.getName(), in.readAllBytes()));
                        }
                    }
                }
            }
        }
        for (ClassFile cf : corpus) {
            Path jar = cf.jar;
            String n = cf.name;
            byte[] bytes = cf.bytes;
            examined++;
            long a = System.nanoTime();
            boolean candidate = ClassBytes.mentionsSystemClass(bytes);
            long b = System.nanoTime();
            scanNanos += b - a;
            if (ClassBytes.mentionsSystem(bytes)) {
                mentionsText++;
            }
            if (!candidate) {
                // The pre-filter must never hide a class that has something to rewrite.
                try {
                    if (ClockCallRewriter.referencesClock(new ClassReader(bytes), ClockCallRewriter.SYSTEM)) {
                        prefilterMisses++;
                    }
                } catch (RuntimeException ex) {
                    unreadable++;
                }
                continue;
            }
            mentionsClass++;
            ClockCallRewriter.Result r;
            a = System.nanoTime();
            try {
                r = ClockCallRewriter.rewriteCounting(bytes);
            } catch (RuntimeException ex) {
                unreadable++;
                continue;
            }
            long c = System.nanoTime();
            if (r == null) {
                parseOnlyNanos += c - a;
                parsedOnly++;
                continue;
            }
            rewriteNanos += c - a;
            rewriteBytes += bytes.length;
            totalSites += r.callSites();
            boolean versioned = n.startsWith("META-INF/versions/");
            String cls = (versioned ? n.substring(n.indexOf('/', "META-INF/versions/".length()) + 1) : n)
                    .replaceAll("\\.class$", "");
            rewritten.add(new Rewritten(jar, cls, versioned, bytes, r.bytes(), r.callSites()));
        }
        long scanDone = System.nanoTime();
        // The same rewrites again, warm (the first pass above is what a JVM start-up pays).
        long warmNanos = 0;
        for (int round = 0; round < 3; round++) {
            long a = System.nanoTime();
            for (Rewritten rw : rewritten) {
                assertNotNull(ClockCallRewriter.rewriteCounting(rw.original));
            }
            warmNanos = System.nanoTime() - a;
        }
        scanDone = System.nanoTime();

        // Checks on every rewritten class.
        List<String> problems = new ArrayList<>();
        long verifiedBoth = 0;
        long originalDoesNotVerify = 0;
        Map<Path, URLClassLoader> jarLoaders = new LinkedHashMap<>();
        URL[] all = new URL[jars.size()];
        for (int i = 0; i < all.length; i++) {
            all[i] = jars.get(i).toUri().toURL();
        }
        try (URLClassLoader allJars = new URLClassLoader("m2-all", all, ClassLoader.getPlatformClassLoader())) {
            for (Rewritten rw : rewritten) {
                String where = (rw.jar == null ? "jrt:" : rw.jar.getFileName() + "!") + rw.className;
                ClockRefs before = ClockRefs.of(rw.original);
                ClockRefs after = ClockRefs.of(rw.rewritten);
                if (after.systemRefs() != 0 || after.fastClockRefs() - before.fastClockRefs() != rw.sites
                        || before.systemRefs() != rw.sites) {
                    problems.add(where + ": counts before " + before.systemRefs() + " after " + after.systemRefs()
                            + "/" + after.fastClockRefs() + " sites " + rw.sites);
                }
                if (!ClockRefs.text(rw.original).equals(ClockRefs.textMappedBack(rw.rewritten))) {
                    problems.add(where + ": differs beyond the swapped owners");
                }
                ClassLoader jarLoader = rw.jar == null ? ClassLoader.getSystemClassLoader()
                        : jarLoaders.computeIfAbsent(rw.jar, j -> childFirst(j, allJars));
                String vo = ClockRefs.verify(rw.original, jarLoader);
                String vr = ClockRefs.verify(rw.rewritten, jarLoader);
                if (vo.isEmpty() && vr.isEmpty()) {
                    verifiedBoth++;
                } else if (vo.isEmpty()) {
                    problems.add(where + ": original verifies, rewritten does not:\n" + vr);
                } else {
                    originalDoesNotVerify++;
                    if (!normalise(vo).equals(normalise(vr))) {
                        problems.add(where + ": verification output changed:\n" + vo + "\n----\n" + vr);
                    }
                }
            }
            long verifyDone = System.nanoTime();

            // Define and link a spread-out sample in throwaway loaders: the JVM verifier sees the bytes.
            int defined = 0;
            int linked = 0;
            int sameFailure = 0;
            // The JDK's own classes cannot be defined again outside the boot layer (java.* is refused).
            List<Rewritten> loadable = rewritten.stream().filter(r -> !r.versioned && r.jar != null)
                    .collect(Collectors.toList());
            int step = Math.max(1, loadable.size() / DEFINE_SAMPLE);
            for (int i = 0; i < loadable.size() && defined < DEFINE_SAMPLE; i += step) {
                Rewritten rw = loadable.get(i);
                defined++;
                String o = defineAndLink(rw, rw.original, allJars);
                String n = defineAndLink(rw, rw.rewritten, allJars);
                if (!o.equals(n)) {
                    problems.add(rw.jar.getFileName() + "!" + rw.className + ": original " + o + ", rewritten " + n);
                } else if (o.equals("linked")) {
                    linked++;
                } else {
                    sameFailure++;
                }
            }
            long defineDone = System.nanoTime();

            for (URLClassLoader l : jarLoaders.values()) {
                l.close();
            }

            System.err.printf("corpus: the runtime image (%d classes, %d rewritten) and %d jars, %d classes examined,"
                            + " %d mention java/lang/System (text), %d name the class, %d rewritten (%d call sites),"
                            + " %d unreadable%n",
                    jdkClasses, rewritten.stream().filter(r -> r.jar == null).count(), jars.size(), examined, mentionsText, mentionsClass, rewritten.size(), totalSites, unreadable);
            System.err.printf("corpus: CheckClassAdapter: %d verify before and after, %d originals do not verify"
                            + " (same output after rewrite); JVM define+link sample: %d defined, %d linked,"
                            + " %d failed identically; %d problems%n",
                    verifiedBoth, originalDoesNotVerify, defined, linked, sameFailure, problems.size());
            System.err.printf("corpus: byte scan %.2f us/class; parse, nothing to rewrite %.1f us/class;"
                            + " rewrite %.1f us/class first pass (cold JIT, as at start-up), %.1f us/class warm"
                            + " (%.1f MB/s); phases: read+scan+rewrite %d ms, checks %d ms, define %d ms%n",
                    scanNanos / 1e3 / examined,
                    parsedOnly == 0 ? 0.0 : parseOnlyNanos / 1e3 / parsedOnly,
                    rewritten.isEmpty() ? 0.0 : rewriteNanos / 1e3 / rewritten.size(),
                    rewritten.isEmpty() ? 0.0 : warmNanos / 1e3 / rewritten.size(),
                    warmNanos == 0 ? 0.0 : rewriteBytes / (warmNanos / 1e9) / 1e6,
                    (scanDone - t0) / 1_000_000, (verifyDone - scanDone) / 1_000_000,
                    (defineDone - verifyDone) / 1_000_000);

            assertTrue(problems.isEmpty(), problems.size() + " problems, first: "
                    + problems.stream().limit(5).collect(Collectors.joining("\n")));
            assertTrue(examined >= 20_000, "only " + examined + " classes in the runtime image and " + repo);
            assertEquals(0, prefilterMisses, "classes with clock calls that the byte pre-filter missed");
            assertTrue(rewritten.size() >= 200, "only " + rewritten.size() + " classes rewritten");
            assertTrue(originalDoesNotVerify * 10 <= rewritten.size(),
                    originalDoesNotVerify + " of " + rewritten.size() + " originals unverifiable");
            assertTrue(linked * 2 >= defined, "only " + linked + " of " + defined + " sample classes linked");
        }
    }

    /** One class file of the corpus; {@code jar} is null for the JDK's runtime image. */
    static final class ClassFile {
        final Path jar;
        final String name;
        final byte[] bytes;

        ClassFile(Path jar, String name, byte[] bytes) {
            this.jar = jar;
            this.name = name;
            this.bytes = bytes;
        }
    }

    /** Every class of the running JDK's modules (jrt:/), the largest body of real clock callers. */
    private static List<ClassFile> runtimeImage() throws IOException {
        List<ClassFile> out = new ArrayList<>();
        java.nio.file.FileSystem jrt = java.nio.file.FileSystems.getFileSystem(java.net.URI.create("jrt:/"));
        try (Stream<Path> s = Files.walk(jrt.getPath("/modules"))) {
            for (Path p : (Iterable<Path>) s.filter(f -> f.toString().endsWith(".class"))::iterator) {
                if (p.getFileName().toString().equals("module-info.class")) {
                    continue;
                }
                // /modules/<module>/<package path>/Name.class
                String name = p.subpath(2, p.getNameCount()).toString();
                out.add(new ClassFile(null, name, Files.readAllBytes(p)));
            }
        }
        return out;
    }

    /** Verifier output with the owners mapped back and the stack frames of the test itself dropped. */
    private static String normalise(String s) {
        return s.replace(ClockCallRewriter.FAST_CLOCK, ClockCallRewriter.SYSTEM).lines()
                .filter(l -> !l.startsWith("\tat ")).collect(Collectors.joining("\n"));
    }

    /** Loads, links (getDeclaredMethods links, hence verifies) and reports the outcome. */
    private static String defineAndLink(Rewritten rw, byte[] bytes, ClassLoader allJars) {
        String name = rw.className.replace('/', '.');
        try (URLClassLoader l = new DefiningLoader(rw.jar, allJars, name, bytes)) {
            Class<?> c = Class.forName(name, false, l);
            c.getDeclaredMethods();
            c.getDeclaredFields();
            return "linked";
        } catch (Throwable t) {
            return t.getClass().getName();
        }
    }

    private static URLClassLoader childFirst(Path jar, ClassLoader parent) {
        return new DefiningLoader(jar, parent, null, null);
    }

    /** Child-first over one jar; defines {@code target} from the given bytes instead of the jar's. */
    static final class DefiningLoader extends URLClassLoader {
        static {
            registerAsParallelCapable();
        }

        private final String target;
        private final byte[] bytes;

        DefiningLoader(Path jar, ClassLoader parent, String target, byte[] bytes) {
            super("corpus", new URL[] {url(jar)}, parent);
            this.target = target;
            this.bytes = bytes;
        }

        private static URL url(Path jar) {
            try {
                return jar.toUri().toURL();
            } catch (IOException e) {
                throw new AssertionError(e);
            }
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                if (c == null && name.equals(target)) {
                    c = defineClass(name, bytes, 0, bytes.length);
                }
                if (c == null && !name.startsWith("java.")) {
                    try {
                        c = findClass(name);
                    } catch (ClassNotFoundException | SecurityException e) {
                        // fall through to the parent
                    }
                }
                if (c == null) {
                    c = getParent().loadClass(name);
                }
                if (resolve) {
                    resolveClass(c);
                }
                return c;
            }
        }
    }
}
