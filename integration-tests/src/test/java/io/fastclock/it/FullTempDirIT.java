package io.fastclock.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fastclock.it.apps.HelloApp;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * java.io.tmpdir on a file system that is full, or mounted read-only (root can write anywhere
 * else, so only a real mount refuses it). Both are small tmpfs mounts made by the test; where
 * mounting is not allowed (not root) the test is skipped and says so.
 *
 * <p>Proves, in docs/CONTRACT.md: host.failure-runs, host.private-library.
 */
class FullTempDirIT {
    @TempDir
    Path temp;

    private Path mountPoint;

    static List<Arguments> cases() {
        List<Arguments> cases = new ArrayList<>();
        for (Jdk jdk : Jdk.all()) {
            cases.add(Arguments.of(jdk, "full"));
            cases.add(Arguments.of(jdk, "read-only"));
        }
        return cases;
    }

    @AfterEach
    void unmount() throws Exception {
        if (mountPoint != null) {
            run("umount", mountPoint.toString());
        }
    }

    @ParameterizedTest(name = "{0} java.io.tmpdir {1}")
    @MethodSource("cases")
    void aFullOrReadOnlyTempDirLeavesTheSystemClocksAndSaysWhy(Jdk jdk, String kind) throws Exception {
        Path tmpdir = Files.createDirectory(temp.resolve(kind));
        String options = kind.equals("full") ? "size=16k,mode=1777" : "ro,size=16k,mode=1777";
        String problem = run("mount", "-t", "tmpfs", "-o", options, "tmpfs", tmpdir.toString());
        Assumptions.assumeTrue(problem == null, "[fastclock-it] SKIPPED: cannot mount a tmpfs here (needs root): " + problem);
        mountPoint = tmpdir;
        if (kind.equals("full")) {
            fill(tmpdir.resolve("filler"));
        }
        List<String> before = listing(tmpdir);

        ForkedJvm.Result r = ForkedJvm.on(jdk).agentArgs("mode=on").jvmArg("-Djava.io.tmpdir=" + tmpdir)
                .main(HelloApp.class).run();

        assertEquals(0, r.exitCode, r.toString());
        assertEquals("ok", r.value("hello"), r.toString());
        assertEquals("true", r.value("millisPlausible"), r.toString());
        assertTrue(ForkedJvm.onSystemBackends(r.value("backends")), r.toString());
        assertEquals(1, r.agentLines().size(), "one line\n" + r);
        String line = r.agentLines().get(0);
        assertTrue(line.contains(tmpdir.toString()), "the line must name the directory\n" + r);
        String cause = kind.equals("full") ? "No space left on device" : "Read-only file system";
        assertTrue(line.contains(cause), "the line must give the cause (" + cause + ")\n" + r);
        assertEquals(before, listing(tmpdir), "the agent left something behind\n" + r);
    }

    /** Writes until the file system refuses: ENOSPC. */
    private static void fill(Path file) throws IOException {
        byte[] block = new byte[1024];
        try (OutputStream out = Files.newOutputStream(file)) {
            for (int i = 0; i < 1024; i++) {
                out.write(block);
                out.flush();
            }
        } catch (IOException expected) {
            return;
        }
        throw new IllegalStateException("a 16k tmpfs took 1 MB");
    }

    private static List<String> listing(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.map(p -> dir.relativize(p).toString()).sorted().collect(Collectors.toList());
        }
    }

    /** @return null on success, else what the command printed */
    private static String run(String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        return p.waitFor() == 0 ? null : String.join(" ", command) + ": " + out;
    }
}
