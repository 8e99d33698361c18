package io.fastclock.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fastclock.it.apps.HelloApp;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * fastclock.jar in a directory whose name its URL escapes (a space, '%', '#', '+', ';'): the entry finds
 * its jar from its class's code source, whose URL the class path escapes, and reads it once. On a fast
 * host the entry answers alone from that read; under the simulator the boot runtime and the agent's
 * module come from it too, and the verdict is active.
 */
class JarPathIT {
    @TempDir
    Path temp;

    static List<Jdk> jdks() {
        return Jdk.all();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void theEntryFindsAJarWhoseUrlIsEscaped(Jdk jdk) throws Exception {
        Path dir = Files.createDirectories(temp.resolve("a dir %41 #1 +2 ;3"));
        Path jar = Files.copy(ForkedJvm.agentJar(), dir.resolve("fast clock%20.jar"));

        // A fast machine fed to the agent (Fixtures.fastMachine), whatever the host's clocks: the entry answers alone.
        ForkedJvm.Result fast = ForkedJvm.on(jdk).withoutAgent().agentGivenByTheTest().jvmArg("-javaagent:" + jar + "=" + Fixtures.fastMachine())
                .main(HelloApp.class).run();
        assertEquals(0, fast.exitCode, fast.toString());
        List<String> lines = fast.agentLines();
        assertEquals(1, lines.size(), fast.toString());
        assertTrue(lines.get(0).startsWith(FastMachineIT.FAST_LINE), fast.toString());

        ForkedJvm.Result slow = ForkedJvm.on(jdk).withoutAgent().agentGivenByTheTest().jvmArg("-javaagent:" + jar).slowClocksource(500)
                .main(HelloApp.class).run();
        assertEquals(0, slow.exitCode, slow.toString());
        assertFalse(ForkedJvm.onSystemBackends(slow.value("backends")), "not active\n" + slow);
        assertTrue(slow.agentLines().stream().noneMatch(l -> l.contains("not started") || l.contains("could not")), slow.toString());
    }
}
