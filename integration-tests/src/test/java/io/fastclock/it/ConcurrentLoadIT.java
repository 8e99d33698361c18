package io.fastclock.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fastclock.it.apps.ConcurrentLoadApp;
import java.io.File;
import java.nio.file.Paths;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * 3000 generated classes that call the clocks (directly and through invokedynamic), defined from
 * four threads at once in many class loaders (parents: the system loader, or the bootstrap loader)
 * while two threads call the clocks: no verification or linkage error, no deadlock, every class
 * rewritten, no rewrite failure.
 *
 * <p>Proves, in docs/CONTRACT.md: reach.any-loader.
 */
class ConcurrentLoadIT {
    static final int CLASSES = 3000;

    static List<Jdk> jdks() {
        return Jdk.all();
    }

    /** The test classes plus the ASM jar the app generates classes with. */
    static String classPathWithAsm() throws Exception {
        String asm = Paths.get(org.objectweb.asm.ClassWriter.class.getProtectionDomain().getCodeSource().getLocation()
                .toURI()).toString();
        return ForkedJvm.testClasses() + File.pathSeparator + asm;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void concurrentlyDefinedClassesAreAllRewrittenAndLink(Jdk jdk) throws Exception {
        ForkedJvm.Result r = ForkedJvm.on(jdk).agentArgs("mode=on,log=debug").classPath(classPathWithAsm())
                .timeoutSeconds(100).main(ConcurrentLoadApp.class, Integer.toString(CLASSES), "4", "2").run();
        String totals = r.agentLines().stream().filter(l -> l.contains("totals:")).findFirst().orElse("(no totals line)");
        System.out.println("[ConcurrentLoadIT] " + jdk + ": " + r.stdout.replace('\n', ' ') + " | " + totals);
        assertEquals(0, r.exitCode, "deadlock or crash\n" + r.stdout + "\n" + totals);
        assertTrue(!r.stdout.contains("deadlock="), r.stdout);
        HostMachine.assertActiveBackends(r.value("backends"), r.stdout);
        assertEquals(0, r.longValue("verifyErrors"), r.value("firstError"));
        assertEquals(0, r.longValue("linkageErrors"), r.value("firstError"));
        assertEquals(0, r.longValue("otherErrors"), r.value("firstError"));
        assertEquals(CLASSES, r.longValue("defined"), r.value("firstError"));
        assertEquals(0, r.longValue("millisOffReference"), "a clock thread's currentTimeMillis() off the reference read"
                + " around it by more than 1 s: " + r.value("firstOffReference") + "\n" + r.stdout);
        assertEquals(0, r.longValue("generatedOffReference"), "a generated class's run() off the reference read around it"
                + " by more than 60 s: " + r.value("firstOffReference") + "\n" + r.stdout);
        assertEquals(0, r.longValue("clockBackwards"), r.stdout);
        assertTrue(r.longValue("clockReads") > 0, r.stdout);

        Matcher m = Pattern.compile("rewritten=([0-9]+) .*failures=([0-9]+)").matcher(totals);
        assertTrue(m.find(), "log=debug printed no totals line\n" + totals);
        assertTrue(Long.parseLong(m.group(1)) >= CLASSES, "fewer than " + CLASSES + " classes rewritten: " + totals);
        assertEquals(0, Long.parseLong(m.group(2)), totals);
        long generatedRewritten = r.agentLines().stream().filter(l -> l.contains("rewrote gen.p")).count();
        assertEquals(CLASSES, generatedRewritten, "not every generated class was rewritten\n" + totals);
        // Call sites: 2 direct in each class, plus 2 handles (System::nanoTime and the lambda body's call)
        // in every second one; half of each are nanoTime's, rewritten only for a TSC clock (mode=on
        // leaves nanoTime on the system clock where the host cannot have one: HostMachine).
        long expectedSites = (CLASSES * 2L + CLASSES / 2 * 2L) / (HostMachine.hasTscClock() ? 1 : 2);
        long sites = r.agentLines().stream().filter(l -> l.contains("rewrote gen.p"))
                .mapToLong(l -> Long.parseLong(l.replaceAll(".*\\(([0-9]+) call sites\\).*", "$1"))).sum();
        assertEquals(expectedSites, sites, totals);
    }
}
