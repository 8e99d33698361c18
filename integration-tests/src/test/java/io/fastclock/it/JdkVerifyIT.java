package io.fastclock.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fastclock.it.apps.JdkVerifyApp;
import java.io.File;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The JDK classes the agent changes pass ASM's verifier, on every JDK tested: a forked app rewrites
 * that JDK's own class files with the agent's rewriter (fastclock.jar on the class path, every row
 * of the replacement table) and verifies them: each of JdkScope.TIME_CLASSES (jdk=time), and every
 * class in the runtime image that names a replaced method (what jdk=all may change). The agent's
 * constant-pool rewrite (what it runs first, ASM being its fallback) is checked on the same classes:
 * it must give ASM's result exactly (call sites, Textifier dump) and verify alike.
 *
 * <p>Supports, in docs/CONTRACT.md: host.jdk-changes (without the agent: its rewriter, on each
 * JDK's own classes).
 */
class JdkVerifyIT {
    static List<Jdk> jdks() {
        return Jdk.all();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void rewrittenJdkClassesPassAsmsVerifier(Jdk jdk) throws Exception {
        String classPath = String.join(File.pathSeparator, ForkedJvm.testClasses().toString(),
                ForkedJvm.agentClasses().toString(), AgentJars.jarOf(org.objectweb.asm.ClassReader.class),
                AgentJars.jarOf(org.objectweb.asm.util.CheckClassAdapter.class),
                AgentJars.jarOf(org.objectweb.asm.tree.ClassNode.class),
                AgentJars.jarOf(org.objectweb.asm.tree.analysis.Analyzer.class));
        ForkedJvm.Result r = ForkedJvm.on(jdk).withoutAgent().classPath(classPath).main(JdkVerifyApp.class).run();
        System.out.println("[JdkVerifyIT] " + jdk + ": " + r.stdout.replace('\n', ' '));
        assertEquals(0, r.exitCode, r.toString());
        assertEquals("ok", r.value("done"), r.toString());
        for (Map.Entry<String, String> e : r.values().entrySet()) {
            if (e.getKey().startsWith("time.java") || e.getKey().startsWith("time.sun")) {
                // JDK 11's Clock has no clock call (its read is in Clock$SystemClock): unchanged there.
                boolean clockOn11 = jdk.feature < 17 && e.getKey().equals("time.java/time/Clock");
                assertTrue(e.getValue().equals("absent") || e.getValue().matches("\\d+ sites ok")
                        || clockOn11 && e.getValue().equals("unchanged"), e.getKey() + ": " + e.getValue() + "\n" + r);
            }
        }
        // java.time's clock read is in Clock (17+) or Clock$SystemClock (11); Date and GregorianCalendar everywhere.
        assertTrue(r.value("time.java/time/Clock$SystemClock").endsWith("sites ok"), r.toString());
        assertTrue(r.value("time.java/util/Date").endsWith("sites ok"), r.toString());
        assertTrue(r.value("time.java/util/GregorianCalendar").endsWith("sites ok"), r.toString());
        if (jdk.feature >= 17) {
            assertTrue(r.value("time.java/time/Clock").endsWith("sites ok"), r.toString());
        }
        assertTrue(r.longValue("time.callSites") > 0, r.toString());
        assertTrue(r.longValue("all.rewritten") > 50, "too few JDK classes with clock calls found\n" + r);
        assertEquals(0, r.longValue("all.failed"), "a rewritten JDK class fails ASM's verifier: "
                + r.value("all.firstFailure") + "\n" + r);
        assertEquals(0, r.longValue("all.poolDiffers"), "the constant-pool rewrite differs from ASM's: "
                + r.value("all.poolFirstDifference") + "\n" + r);
        assertEquals(r.longValue("all.rewritten"), r.longValue("all.poolRewritten") + r.longValue("all.poolToAsm"), r.toString());
        assertEquals(0, r.longValue("all.poolToAsm"), "JDK classes handed to ASM\n" + r);
    }
}
