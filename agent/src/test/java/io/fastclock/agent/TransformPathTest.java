package io.fastclock.agent;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The code that runs inside ClassFileTransformer.transform (for every class the JVM loads, the JDK's
 * own included) must not use what initialises java.util.concurrent.ThreadLocalRandom: that class
 * goes through the transformer too, and a LongAdder or ConcurrentHashMap under contention calls
 * ThreadLocalRandom.current() from inside its loading, a ClassCircularityError (seen on JDK 21:
 * "could not rewrite java.util.concurrent.ThreadLocalRandom"). Checked on the class files of the
 * transform path: none names those classes.
 */
class TransformPathTest {
    private static final String[] TRANSFORM_PATH = {
        "io/fastclock/rewrite/ClockTransformer", "io/fastclock/rewrite/ClockTransformer$Scope",
        "io/fastclock/rewrite/RewriteStats", "io/fastclock/rewrite/ConstantPoolRewriter", "io/fastclock/asm/ClockCallRewriter",
        "io/fastclock/rewrite/ClassFilter", "io/fastclock/rewrite/JdkScope", "io/fastclock/rewrite/ClassBytes",
        "io/fastclock/rewrite/ClockReplacements", "io/fastclock/rewrite/RuntimePackages", "io/fastclock/rewrite/RuntimeShadows",
        "io/fastclock/rewrite/Rewritten", "io/fastclock/boot/ReadsRuntime", "io/fastclock/boot/BootLog",
        "io/fastclock/boot/EarlyStart$LineTo", "io/fastclock/agent/FirstFailureReporter",
    };
    private static final String[] FORBIDDEN = {
        "java/util/concurrent/atomic/LongAdder", "java/util/concurrent/atomic/Striped64",
        "java/util/concurrent/ConcurrentHashMap", "java/util/concurrent/ThreadLocalRandom",
        "java/util/concurrent/atomic/LongAccumulator",
    };

    @Test
    void theTransformPathNamesNothingThatInitialisesThreadLocalRandom() throws IOException {
        List<String> found = new ArrayList<>();
        int read = 0;
        for (String name : TRANSFORM_PATH) {
            byte[] bytes = classFile(name);
            if (bytes == null) {
                continue; // an inner class that does not exist (yet)
            }
            read++;
            String text = new String(bytes, StandardCharsets.ISO_8859_1);
            for (String forbidden : FORBIDDEN) {
                if (text.contains(forbidden)) {
                    found.add(name + " names " + forbidden);
                }
            }
        }
        assertTrue(read >= TRANSFORM_PATH.length - 1, "the transform path's class files were not found");
        assertTrue(found.isEmpty(), String.join("\n", found));
    }

    private static byte[] classFile(String internalName) throws IOException {
        try (InputStream in = TransformPathTest.class.getClassLoader().getResourceAsStream(internalName + ".class")) {
            return in == null ? null : in.readAllBytes();
        }
    }
}
