package io.fastclock.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * An application on the module path: its named module must be given a read edge to the runtime
 * (in the boot loader's unnamed module) or the rewritten class would fail to link.
 *
 * <p>Proves, in docs/CONTRACT.md: reach.named-modules.
 */
class NamedModuleIT {
    static List<Jdk> jdks() {
        return Jdk.all();
    }

    @TempDir
    static Path temp;

    private static Path compiledModule() throws Exception {
        Path out = temp.resolve("mods");
        if (Files.isDirectory(out)) {
            return out;
        }
        Path src = temp.resolve("src/com.acme.app");
        Files.createDirectories(src.resolve("com/acme/app"));
        Files.write(src.resolve("module-info.java"), "module com.acme.app { }\n".getBytes(StandardCharsets.UTF_8));
        Files.write(src.resolve("com/acme/app/Main.java"), String.join("\n",
                "package com.acme.app;",
                "public class Main {",
                "  public static void main(String[] args) throws InterruptedException {",
                "    for (int i = 0; i < 30_000 && System.getProperty(\"fastclock.active\") == null; i++) {",
                "      Thread.sleep(2); // the verdict, as a program running longer sees it (apps.AgentVerdict)",
                "    }",
                "    java.util.function.LongSupplier nanos = System::nanoTime;",
                "    long millis = System.currentTimeMillis();",
                "    System.out.println(\"millisPlausible=\" + (Math.abs(millis - 1_700_000_000_000L) < 1_000_000_000_000L));",
                "    System.out.println(\"nanosRead=\" + (nanos.getAsLong() != 0));",
                "    System.out.println(\"named=\" + Main.class.getModule().isNamed());",
                "  }",
                "}").getBytes(StandardCharsets.UTF_8));
        int rc = ToolProvider.getSystemJavaCompiler().run(null, null, null, "--release", "11", "-d",
                out.resolve("com.acme.app").toString(), src.resolve("module-info.java").toString(),
                src.resolve("com/acme/app/Main.java").toString());
        assertEquals(0, rc, "javac failed");
        return out;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void aClassInANamedModuleIsRewrittenAndLinks(Jdk jdk) throws Exception {
        Path mods = compiledModule();
        ForkedJvm.Result r = ForkedJvm.on(jdk).agentArgs("mode=on,log=debug")
                .jvmArg("-p", mods.toString(), "-m", "com.acme.app/com.acme.app.Main").modularMain().run();
        assertEquals(0, r.exitCode, r.toString());
        assertEquals("true", r.value("named"), r.toString());
        assertEquals("true", r.value("millisPlausible"), r.toString());
        assertEquals("true", r.value("nanosRead"), r.toString());
        // Main reads both clocks; mode=on moves nanoTime only to a TSC clock (HostMachine), so where the
        // host cannot have one only the currentTimeMillis call site is rewritten.
        int callSites = HostMachine.hasTscClock() ? 2 : 1;
        assertTrue(r.stderr.contains("fastclock: rewrote com.acme.app.Main (" + callSites + " call sites)"), r.toString());
        assertTrue(r.stderr.contains("failures=0"), r.toString());
    }
}
