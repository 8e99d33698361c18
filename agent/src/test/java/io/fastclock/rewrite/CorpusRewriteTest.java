package io.fastclock.rewrite;

import static org.junit.jupiter.api.Assertions.*;

import io.fastclock.asm.ClockCallRewriter;
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
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;

/**
 * Rewrites, with every row of the replacement table ({@link ClockReplacements#all()}: currentTimeMillis,
 * nanoTime and java.time's getNanoTimeAdjustment), every class of the running JDK's runtime image
 * (jrt:/, always there: about 26k classes, some 200 of them clock callers) and, where there is one,
 * of every jar in the local Maven repository (ASM, JUnit, Maven and its plugins...), the way the
 * agent does: the transformer's own byte pre-filter ({@link ClockTransformer#mayCallClocks}), then
 * {@link ClockCallRewriter#rewriteCounting(byte[], ClockReplacements)}. Checks that the pre-filter
 * never hides a class with something to rewrite, that every row is met, and that the rewrite is
 * invisible except for the swapped references: same text once mapped back, same CheckClassAdapter
 * verdict, same result when a sample is defined and linked by the JVM (which verifies the bytecode
 * and its stack maps). And that the agent's constant-pool rewrite ({@link ConstantPoolRewriter}) gives
 * ASM's result on every one of these classes: the same Textifier dump (every instruction, owner, name,
 * descriptor, frame), the same call-site count, the same CheckClassAdapter verdict and JVM
 * define+link outcome; the classes it hands to ASM are named.
 */
class CorpusRewriteTest {
    private static final int DEFINE_SAMPLE = 300;
    private static final ClockReplacements TABLE = ClockReplacements.all();
    private static final ConstantPoolRewriter POOL = new ConstantPoolRewriter(TABLE);
    /** Built as the agent builds it, with every row: its pre-filter is the one under test. */
    private static final ClockTransformer TRANSFORMER = new ClockTransformer(ClockRefs.allClasses(), JdkScope.NONE,
            TABLE, new RewriteStats(), new RewriteStats(), null, m -> false);

    static final class CorpusEntry {
        final Path jar;
        final String className;
        final boolean versioned;
        final byte[] original;
        final byte[] rewritten;
        final int sites;
        /** The constant-pool rewrite's bytes; null where it handed the class to ASM. */
        final byte[] pool;

        CorpusEntry(Path jar, String className, boolean versioned, byte[] original, byte[] rewritten, int sites,
                byte[] pool) {
            this.jar = jar;
            this.className = className;
            this.versioned = versioned;
            this.original = original;
            this.rewritten = rewritten;
            this.sites = sites;
            this.pool = pool;
        }
    }

    /** Every jar in the local Maven repository, or none where there is no repository. */
    private static List<Path> mavenRepositoryJars(Path repo) throws IOException {
        if (!Files.isDirectory(repo)) {
            System.err.println("corpus: no local Maven repository at " + repo + "; the runtime image alone");
            return new ArrayList<>();
        }
        try (Stream<Path> s = Files.walk(repo)) {
            // Our own artifacts (after a local `mvn install`) already call FastClock: not a corpus.
            Path own = repo.resolve("io").resolve("fastclock");
            return s.filter(p -> p.toString().endsWith(".jar") && Files.isRegularFile(p) && !p.startsWith(own)).sorted()
                    .collect(Collectors.toList());
        }
    }

    @Test
    void rewritesTheRuntimeImageAndTheLocalMavenRepository() throws Exception {
        long t0 = System.nanoTime();
        Path repo = Paths.get(System.getProperty("user.home"), ".m2", "repository");
        List<Path> jars = mavenRepositoryJars(repo);

        long examined = 0;
        long candidates = 0;
        long unreadable = 0;
        long prefilterMisses = 0;
        String firstMiss = null;
        long scanNanos = 0;
        long rewriteNanos = 0;
        long rewriteBytes = 0;
        long totalSites = 0;
        long parseOnlyNanos = 0;
        long parsedOnly = 0;
        long poolNanos = 0;
        long poolToAsm = 0;
        List<String> poolProblems = new ArrayList<>();
        List<CorpusEntry> rewritten = new ArrayList<>();
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
            boolean candidate = TRANSFORMER.mayCallClocks(bytes);
            long b = System.nanoTime();
            scanNanos += b - a;
            if (!candidate) {
                // The pre-filter must never hide a class that has something to rewrite.
                try {
                    if (ClockCallRewriter.referencesClock(new ClassReader(bytes), TABLE)) {
                        prefilterMisses++;
                        if (firstMiss == null) {
                            firstMiss = (jar == null ? "jrt:" : jar.getFileName() + "!") + n;
                        }
                    }
                } catch (RuntimeException ex) {
                    unreadable++;
                }
                continue;
            }
            candidates++;
            String where = (jar == null ? "jrt:" : jar.getFileName() + "!") + n;
            // The constant-pool rewrite first: its first pass is as cold as ASM's.
            Rewritten p;
            long pa = System.nanoTime();
            try {
                p = POOL.rewrite(bytes);
            } catch (RuntimeException ex) {
                p = ConstantPoolRewriter.ASM_NEEDED; // as the transformer does
            }
            long pb = System.nanoTime();
            Rewritten r;
            a = System.nanoTime();
            try {
                r = ClockCallRewriter.rewriteCounting(bytes, TABLE);
            } catch (RuntimeException ex) {
                unreadable++;
                if (p != ConstantPoolRewriter.ASM_NEEDED) {
                    poolProblems.add(where + ": ASM cannot read it, the pool rewrite gave " + p);
                }
                continue;
            }
            long c = System.nanoTime();
            if (p == ConstantPoolRewriter.ASM_NEEDED) {
                poolToAsm++;
                System.err.println("corpus: handed to ASM: " + where);
                p = r;
            } else if (r == null || p == null) {
                if (r != p) {
                    poolProblems.add(where + ": ASM " + (r == null ? "unchanged" : "rewrote")
                            + ", the pool rewrite " + (p == null ? "unchanged" : "rewrote"));
                }
            } else {
                poolNanos += pb - pa;
                if (p.callSites() != r.callSites()) {
                    poolProblems.add(where + ": call sites: ASM " + r.callSites() + ", pool " + p.callSites());
                } else if (!ClockRefs.text(p.bytes()).equals(ClockRefs.text(r.bytes()))) {
                    poolProblems.add(where + ": the pool rewrite's dump differs from ASM's");
                }
            }
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
            rewritten.add(new CorpusEntry(jar, cls, versioned, bytes, r.bytes(), r.callSites(),
                    p == r ? null : p.bytes()));
        }
        long scanDone = System.nanoTime();
        // The same rewrites again, warm (the first pass above is what a JVM start-up pays).
        long warmNanos = 0;
        for (int round = 0; round < 3; round++) {
            long a = System.nanoTime();
            for (CorpusEntry rw : rewritten) {
                assertNotNull(ClockCallRewriter.rewriteCounting(rw.original, TABLE));
            }
            warmNanos = System.nanoTime() - a;
        }
        long poolWarmNanos = 0;
        for (int round = 0; round < 3; round++) {
            long a = System.nanoTime();
            for (CorpusEntry rw : rewritten) {
                assertNotNull(POOL.rewrite(rw.original));
            }
            poolWarmNanos = System.nanoTime() - a;
        }
        scanDone = System.nanoTime();

        // Checks on every rewritten class.
        List<String> problems = new ArrayList<>();
        Map<String, Integer> sitesByRow = new TreeMap<>();
        long verifiedBoth = 0;
        long originalDoesNotVerify = 0;
        Map<Path, URLClassLoader> jarLoaders = new LinkedHashMap<>();
        URL[] all = new URL[jars.size()];
        for (int i = 0; i < all.length; i++) {
            all[i] = jars.get(i).toUri().toURL();
        }
        try (URLClassLoader allJars = new URLClassLoader("m2-all", all, ClassLoader.getPlatformClassLoader())) {
            for (CorpusEntry rw : rewritten) {
                String where = (rw.jar == null ? "jrt:" : rw.jar.getFileName() + "!") + rw.className;
                ClockRefs before = ClockRefs.of(rw.original);
                ClockRefs after = ClockRefs.of(rw.rewritten);
                if (after.tableRefs != 0 || after.replacementRefs - before.replacementRefs != rw.sites
                        || before.tableRefs != rw.sites) {
                    problems.add(where + ": table references before " + before.tableRefs + " after " + after.tableRefs
                            + ", replacements after " + after.replacementRefs + ", sites " + rw.sites);
                }
                for (Map.Entry<String, Integer> row : before.tableRefsByRow.entrySet()) {
                    sitesByRow.merge(row.getKey(), row.getValue(), Integer::sum);
                }
                if (!ClockRefs.text(rw.original).equals(ClockRefs.textMappedBack(rw.rewritten))) {
                    problems.add(where + ": differs beyond the swapped owners");
                }
                ClassLoader jarLoader = rw.jar == null ? ClassLoader.getSystemClassLoader()
                        : jarLoaders.computeIfAbsent(rw.jar, j -> childFirst(j, allJars));
                String vo = ClockRefs.verify(rw.original, jarLoader);
                String vr = ClockRefs.verify(rw.rewritten, jarLoader);
                // (stack frames dropped: the verifier's exceptions carry the test's own)
                if (rw.pool != null && !normalise(ClockRefs.verify(rw.pool, jarLoader)).equals(normalise(vr))) {
                    problems.add(where + ": CheckClassAdapter says otherwise of the pool rewrite than of ASM's");
                }
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
            // java.* cannot be defined outside the boot layer; the JDK's other classes can, in a loader of their own.
            List<CorpusEntry> loadable = rewritten.stream().filter(r -> !r.versioned && !r.className.startsWith("java/"))
                    .collect(Collectors.toList());
            int jdkDefined = 0;
            int jdkLinked = 0;
            int step = Math.max(1, loadable.size() / DEFINE_SAMPLE);
            for (int i = 0; i < loadable.size() && defined < DEFINE_SAMPLE; i += step) {
                CorpusEntry rw = loadable.get(i);
                defined++;
                String o = defineAndLink(rw, rw.original, allJars);
                String n = defineAndLink(rw, rw.rewritten, allJars);
                String np = rw.pool == null ? n : defineAndLink(rw, rw.pool, allJars);
                if (!np.equals(n)) {
                    problems.add(where(rw) + ": ASM's rewrite " + n + ", the pool rewrite " + np);
                }
                if (rw.jar == null) {
                    jdkDefined++;
                    jdkLinked += o.equals("linked") ? 1 : 0;
                }
                if (!o.equals(n)) {
                    problems.add((rw.jar == null ? "jrt:" : rw.jar.getFileName() + "!") + rw.className + ": original " + o
                            + ", rewritten " + n);
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
                            + " %d past the pre-filter, %d rewritten (%d call sites: %s), %d unreadable%n",
                    jdkClasses, rewritten.stream().filter(r -> r.jar == null).count(), jars.size(), examined, candidates,
                    rewritten.size(), totalSites, sitesByRow, unreadable);
            System.err.printf("corpus: CheckClassAdapter: %d verify before and after, %d originals do not verify"
                            + " (same output after rewrite); JVM define+link sample: %d defined, %d linked,"
                            + " %d failed identically (of the JDK's: %d defined, %d linked); %d problems%n",
                    verifiedBoth, originalDoesNotVerify, defined, linked, sameFailure, jdkDefined, jdkLinked, problems.size());
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
            System.err.printf("corpus: constant-pool rewrite: %d of %d rewritten classes, %d handed to ASM;"
                            + " %.1f us/class first pass (ASM %.1f), %.1f us/class warm (ASM %.1f); %d differ from ASM%n",
                    rewritten.size() - poolToAsm, rewritten.size(), poolToAsm,
                    rewritten.size() == poolToAsm ? 0.0 : poolNanos / 1e3 / (rewritten.size() - poolToAsm),
                    rewritten.isEmpty() ? 0.0 : rewriteNanos / 1e3 / rewritten.size(),
                    rewritten.isEmpty() ? 0.0 : poolWarmNanos / 1e3 / rewritten.size(),
                    rewritten.isEmpty() ? 0.0 : warmNanos / 1e3 / rewritten.size(), poolProblems.size());
            assertTrue(poolProblems.isEmpty(), poolProblems.size() + " pool rewrites differ from ASM's, first: "
                    + poolProblems.stream().limit(5).collect(Collectors.joining("\n")));
            // ASM is for the rare class: a full pool, or an odd use of a clock method (none seen in this corpus).
            assertTrue(poolToAsm * 100 <= rewritten.size(), poolToAsm + " of " + rewritten.size() + " handed to ASM");

            assertTrue(problems.isEmpty(), problems.size() + " problems, first: "
                    + problems.stream().limit(5).collect(Collectors.joining("\n")));
            assertTrue(examined >= 20_000, "only " + examined + " classes in the runtime image and " + repo);
            assertEquals(0, prefilterMisses, "classes with clock calls that the byte pre-filter missed, first " + firstMiss);
            for (ClockReplacements.Row row : TABLE.rows()) {
                assertTrue(sitesByRow.getOrDefault(row.toString(), 0) > 0, "no call site in the corpus for " + row);
            }
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

    private static String where(CorpusEntry rw) {
        return (rw.jar == null ? "jrt:" : rw.jar.getFileName() + "!") + rw.className;
    }

    /** Verifier output with the owners mapped back and the stack frames of the test itself dropped. */
    private static String normalise(String s) {
        return ClockRefs.mappedBack(s).lines()
                .filter(l -> !l.startsWith("\tat ")).collect(Collectors.joining("\n"));
    }

    /** Loads, links (getDeclaredMethods links, hence verifies) and reports the outcome. */
    private static String defineAndLink(CorpusEntry rw, byte[] bytes, ClassLoader allJars) {
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
            super("corpus", jar == null ? new URL[0] : new URL[] {url(jar)}, parent);
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
