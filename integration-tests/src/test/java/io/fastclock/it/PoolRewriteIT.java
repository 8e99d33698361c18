package io.fastclock.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fastclock.it.apps.HelloApp;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The agent rewrites an application's clock calls on the constant pool alone: a hello world whose
 * two calls are rewritten (and whose clocks still read right) loads no class of the agent's ASM
 * (docs/DESIGN-NOTES.md note 10: ASM's first use costs some 30 classes loaded and verified).
 */
class PoolRewriteIT {
    static List<Jdk> jdks() {
        return Jdk.all();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void aRewrittenHelloWorldLoadsNoAsmClass(Jdk jdk, @TempDir Path temp) throws Exception {
        Path log = temp.resolve("class-load.log");
        ForkedJvm.Result r = ForkedJvm.on(jdk).agentArgs("mode=on,log=debug")
                .jvmArg("-Xlog:class+load=info:file=" + log).main(HelloApp.class).run();
        assertEquals(0, r.exitCode, r.toString());
        assertEquals("true", r.value("active"), r.toString());
        assertEquals("true", r.value("millisPlausible"), r.toString());
        assertTrue(r.stderr.contains("rewrote " + HelloApp.class.getName() + " (2 call sites)"), r.toString());
        List<String> loaded = Files.readAllLines(log);
        assertTrue(loaded.stream().anyMatch(l -> l.contains(" " + HelloApp.class.getName() + " ")),
                "the class-load log does not name the app: not the log of this run?\n" + r);
        List<String> asm = loaded.stream().filter(l -> l.contains("io.fastclock.shaded.asm."))
                .collect(Collectors.toList());
        assertEquals(List.of(), asm, "ASM classes loaded\n" + r);
    }
}
