package io.fastclock.it;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

/** The JDKs the integration tests fork: the one running the build, and JDK 25 where installed. */
public final class Jdk {
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

    /** Current JDK and JDK 25; prints a visible line when JDK 25 is not installed. */
    public static List<Jdk> all() {
        List<Jdk> jdks = new ArrayList<>();
        jdks.add(current());
        Jdk jdk25 = jdk25();
        if (jdk25 == null) {
            System.err.println("[fastclock-it] SKIPPED on JDK 25: not installed at "
                    + System.getProperty("fastclock.jdk25.home") + " (set -Dfastclock.jdk25.home=...)");
        } else if (jdk25.feature != current().feature) {
            jdks.add(jdk25);
        }
        return jdks;
    }
}
