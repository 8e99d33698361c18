package io.fastclock.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fastclock.it.apps.AgentLoaderProbe;
import io.fastclock.it.apps.RightsProbeApp;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * fastclock adds no rights to the application (host.no-rights in docs/CONTRACT.md).
 * A class-path program ({@link RightsProbeApp}) tries what the agent must not give it, and must get
 * exactly what it gets without fastclock: the JDK packages exported or opened to its module,
 * jdk.internal.misc.Unsafe, the boot loader's native libraries, an Instrumentation in any static
 * field it can reach (from its own loader, and from the loader of fastclock's module, which a
 * test-only agent, {@link AgentLoaderProbe}, hands it in every mode), an entry point that does
 * anything for it (premain, agentmain "detach", the agent module's service: each call must throw or
 * say it is refused), and any clock state it can change. Active (mode=on; under the simulator with the defaults),
 * inactive verdicts (the defaults on this host; millis=system,nanos=system; a library that does
 * not exist), attached to the running program, and decided in the background (start=background:
 * probed once the verdict is in).
 *
 * <p>Proves, in docs/CONTRACT.md: host.no-rights.
 */
class IsolationIT {
    @TempDir
    Path temp;

    /** The run without fastclock, one per JDK: what every mode is compared with. */
    private static final Map<String, ForkedJvm.Result> WITHOUT = new ConcurrentHashMap<>();

    /** Decided on the agent's own thread while main runs; probed once the verdict is in. */
    static final String BACKGROUND = "mode=on,start=background";
    /** Plain settings on a machine whose system clocks are fast: the entry answers, and defines no module. */
    static final String FAST_MACHINE = "fast machine";
    /** JNA loaded and serving currentTimeMillis: issue 35's second door. */
    static final String JNA = "millis=jna-coarse";
    /** A case run on a hardened JDK 25 too (Jdk.hardenedFlags). */
    static final String HARDENED = " (hardened)";

    static List<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        for (Jdk jdk : Jdk.all()) {
            for (String how : new String[] {"mode=on", "mode=on,jmx=on", "defaults", FAST_MACHINE, "simulator",
                "millis=system,nanos=system", "library=/nonexistent/libfastclock.so", JNA, "attach", BACKGROUND}) {
                out.add(Arguments.of(jdk, how));
            }
            if (!jdk.hardenedFlags().isEmpty()) {
                for (String how : new String[] {"mode=on", "simulator", JNA}) {
                    out.add(Arguments.of(jdk, how + HARDENED));
                }
            }
        }
        return out;
    }

    @ParameterizedTest(name = "{0}, {1}")
    @MethodSource("cases")
    void theApplicationGetsExactlyWhatItGetsWithoutTheAgent(Jdk jdk, String how) throws Exception {
        String jar = ForkedJvm.agentJar().toString();
        // After fastclock's -javaagent (or alone, where fastclock is attached later): finds its module's loader.
        String probe = "-javaagent:" + AgentJars.premainJar(temp, AgentLoaderProbe.class);
        ForkedJvm.Result without = WITHOUT.get(jdk.label);
        if (without == null) {
            without = ForkedJvm.on(jdk).withoutAgent().jvmArg(probe).main(RightsProbeApp.class, jar).run();
            WITHOUT.put(jdk.label, without);
        }
        ForkedJvm.Result with;
        String attachOutput = "";
        if (how.equals("attach")) {
            Path trigger = temp.resolve("go");
            ForkedJvm target = ForkedJvm.on(jdk).withoutAgent().jvmArg(probe)
                    .main(RightsProbeApp.class, jar, trigger.toString());
            if (jdk.feature >= 21) {
                target.jvmArg("-XX:+EnableDynamicAgentLoading");
            }
            try (ForkedJvm.Running app = target.start()) {
                app.awaitLine("waiting=1");
                ForkedJvm.Result attach = AttachIT.command(jdk, "attach", Long.toString(app.pid()), "mode=on");
                attachOutput = attach.toString();
                assertEquals(0, attach.exitCode, attachOutput);
                Files.createFile(trigger);
                with = app.finish();
            }
        } else if (how.equals(BACKGROUND)) {
            Path trigger = temp.resolve("go");
            try (ForkedJvm.Running app = ForkedJvm.on(jdk).agentArgs(how).jvmArg(probe)
                    .main(RightsProbeApp.class, jar, trigger.toString()).start()) {
                app.awaitLine("waiting=1");
                long deadline = System.nanoTime() + 60_000_000_000L;
                while (!app.stderr().contains("fastclock: active") && System.nanoTime() < deadline) {
                    Thread.sleep(10);
                }
                Files.createFile(trigger);
                with = app.finish();
            }
        } else {
            ForkedJvm jvm = ForkedJvm.on(jdk).jvmArg(probe);
            if (how.endsWith(HARDENED)) {
                jvm.jvmArg(jdk.hardenedFlags().toArray(new String[0]));
                how = how.substring(0, how.length() - HARDENED.length());
            }
            if (how.equals("simulator")) {
                jvm.slowClocksource(0);
            } else if (how.equals(FAST_MACHINE)) {
                jvm.agentArgs(Fixtures.fastMachine());
            } else if (!how.equals("defaults")) {
                jvm.agentArgs(how);
            }
            with = jvm.main(RightsProbeApp.class, jar).run();
        }
        String context = "with the agent (" + how + "):\n" + with + "\nwithout:\n" + without + "\n" + attachOutput;
        assertEquals(0, with.exitCode, context);
        assertEquals("1", with.value("done"), context);

        // 1. Nothing of the JDK exported or opened to the application's module.
        assertEquals(without.value("exportedToMe"), with.value("exportedToMe"), context);
        assertEquals("denied", with.value("unsafe"), context);
        assertEquals("denied", with.value("bootLibraries"), context);
        assertEquals("denied", with.value("vmSupport"), context);
        // 2. No agent class on the application's loader, nothing readable behind the agent's own.
        assertEquals("0", with.value("agentClassesLoadableFromClassPath"), context);
        assertEquals("0", with.value("staticFieldsReadable"), context);
        assertEquals("0", with.value("instrumentationFound"), context);
        // Issue 35: no Lookup into any class of fastclock's; no JNA class from a thread, no JNA call at all.
        assertEquals("0", with.value("privateLookups"), "a full-privilege Lookup into fastclock\n" + context);
        assertEquals("0", with.value("jnaFoundFromThreads"), "JNA's loader from a thread\n" + context);
        assertEquals("0", with.value("jnaCalls"), "JNA callable by the application\n" + context);
        // 3. Every entry point called with a null or fake Instrumentation did nothing: each call threw or
        //    said it was refused, the agent is still there (below), never detached, never started twice,
        //    and the commands never ran (they would have exited before done=1).
        // On a machine whose clocks are fast, with plain settings, the entry answers: no module to find.
        boolean entryAnswered = (how.equals(FAST_MACHINE) || how.equals("defaults"))
                && with.stderr.contains("fastclock: inactive: system clocks are fast here");
        if (how.equals(FAST_MACHINE)) {
            assertTrue(entryAnswered, "plain settings on a fast machine: the entry answers\n" + context);
        }
        assertEquals(Boolean.toString(!entryAnswered), with.value("agentLoaderFound"),
                "the probe agent should find fastclock's module exactly where the module was defined\n" + context);
        if (!entryAnswered) {
            assertTrue(with.longValue("serviceCalls") > 0, "the agent module's service was not called\n" + context);
        }
        assertEquals("0", with.value("entryCallsHonoured"), "an entry call was honoured\n" + context);
        assertTrue(!with.stderr.contains("detached"), context);
        assertTrue(!with.stderr.contains("already installed"), context);
        assertTrue(with.agentLines().stream().filter(l -> l.startsWith("fastclock: active")).count() <= 1,
                "a second start line\n" + context);
        //    premain and agentmain also got the JDK's own Instrumentation class, forged (sun.misc.Unsafe):
        //    only the check of who called them refuses that one.
        assertEquals("true", with.value("forgedInstrumentation"), context);
        assertTrue(with.stderr.contains(", not by the JVM"), "the forged Instrumentation should be refused for its caller\n" + context);
        // 4. No clock state the application can change.
        assertEquals("none", with.value("clockChanged").replace("none(no runtime)", "none"), context);
        assertTrue(with.longValue("nanoTimeOutsideItsReferenceNanos") < 10_000_000L,
                "a rewritten nanoTime left the JDK's by more than 10 ms\n" + context);
        if (how.equals(JNA)) {
            assertTrue(with.stderr.contains("currentTimeMillis -> jna-coarse"), "JNA should serve millis here\n" + context);
        }
        if (how.startsWith("mode=on") || how.equals("simulator") || how.equals("attach")) {
            assertTrue(with.stderr.contains("fastclock: active"), "the agent should be active here\n" + context);
            assertTrue(with.stderr.contains("refused"), "the entry calls should be refused visibly\n" + context);
        }
    }
}
