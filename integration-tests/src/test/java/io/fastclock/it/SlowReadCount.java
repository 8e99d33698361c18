package io.fastclock.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The slow-clocksource simulator's count of fine (slow) clock reads, written when the forked JVM
 * exits (SLOWCLOCK_COUNT; see native/src/main/c/slowclock.c). Reads made inside
 * {@link io.fastclock.it.apps.CountedWindow} are counted apart: a test proves that a workload no
 * longer reaches the slow clocksource by counting them, not by timing.
 */
public final class SlowReadCount {
    private final Path file;

    private SlowReadCount(Path file) {
        this.file = file;
    }

    /** A fresh count file (deleted, so a JVM that wrote nothing cannot pass with stale figures). */
    public static SlowReadCount create() throws IOException {
        Path file = Files.createTempFile("fastclock-slow-reads", ".txt");
        Files.delete(file);
        return new SlowReadCount(file);
    }

    /** Runs the JVM under the simulator (fine reads are syscalls, plus spinNanos) and counts its reads. */
    public ForkedJvm underSimulator(ForkedJvm jvm, long spinNanos) {
        return jvm.slowClocksource(spinNanos).env("SLOWCLOCK_COUNT", file.toString());
    }

    /** The figures the JVM wrote at exit; fails if it wrote none. Deletes the file. */
    public Counts read() throws IOException {
        if (!Files.isRegularFile(file)) {
            throw new AssertionError("the simulator wrote no counts to " + file
                    + " (not preloaded, or the JVM did not exit through exit())");
        }
        Map<String, Long> values = new HashMap<>();
        for (String line : new String(Files.readAllBytes(file), StandardCharsets.UTF_8).split("\n")) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                values.put(line.substring(0, eq), Long.parseLong(line.substring(eq + 1).trim()));
            }
        }
        Files.delete(file);
        return new Counts(values);
    }

    /** key=value figures, e.g. fine_reads_total and fine_reads_in_counted_threads_monotonic. */
    public static final class Counts {
        private final Map<String, Long> values;

        Counts(Map<String, Long> values) {
            this.values = values;
        }

        public long get(String key) {
            Long v = values.get(key);
            if (v == null) {
                throw new AssertionError("no " + key + " in the simulator's counts: " + values);
            }
            return v;
        }

        /** Fine reads by every thread of the process. */
        public long total() {
            return get("fine_reads_total");
        }

        /** Fine reads made inside CountedWindow (all clocks). */
        public long inCountedThreads() {
            return get("fine_reads_in_counted_threads");
        }

        @Override
        public String toString() {
            return new java.util.TreeMap<>(values).toString();
        }
    }
}
