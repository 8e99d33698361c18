package io.fastclock.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fastclock.it.apps.CoverageApp;
import io.fastclock.it.apps.HelloApp;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * When the agent rewrites, what it reaches, and that it leaves fast machines alone. No case relies
 * on this host's clocks: a case about a fast or a slow machine feeds it (Fixtures, the simulator),
 * and the one with default settings accepts the host's verdict, checked against its clocksource.
 *
 * <p>Proves, in docs/CONTRACT.md: activation.auto, activation.off, activation.tsc-checks,
 * nanos.no-coarse, reach.call-sites, reach.any-loader, host.quiet.
 */
class ActivationIT {
    static List<Jdk> jdks() {
        return Jdk.all();
    }

    private static final String[] KINDS = {"plain", "constructor", "staticInit", "lambda", "methodRef",
        "defaultMethod", "isolatedLoader", "nanoLambda"};

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void underTheSimulatorAutoRewritesEveryKindOfCallSite(Jdk jdk) throws Exception {
        ForkedJvm.Result r = ForkedJvm.on(jdk).slowClocksource(0).agentArgs("log=debug").main(CoverageApp.class).run();
        assertEquals(0, r.exitCode, r.toString());
        assertTrue(r.stderr.contains("fastclock: active:"), r.toString());
        for (String kind : KINDS) {
            assertEquals("ok", r.value(kind), kind + " read a wrong value\n" + r);
        }
        // LambdaCalls holds a currentTimeMillis and a nanoTime lambda. Auto moves nanoTime only to
        // the TSC clock: on a host that cannot have one (no invariant TSC, or a TSC the kernel
        // dropped) the nanoTime call site rightly stays on the system clock, and only one is rewritten.
        int lambdaCallSites = HostMachine.hasTscClock() ? 2 : 1;
        String[] rewritten = {
            "CoverageApp$PlainCalls (1 call sites)",
            "CoverageApp$ConstructorCalls (1 call sites)",
            "CoverageApp$StaticInitCalls (1 call sites)",
            "CoverageApp$LambdaCalls (" + lambdaCallSites + " call sites)",
            "CoverageApp$MethodRefCalls (1 call sites)",
            "CoverageApp$DefaultMethodCalls (1 call sites)",
            "IsolatedCalls (1 call sites)",
        };
        for (String line : rewritten) {
            assertTrue(r.stderr.contains("fastclock: rewrote io.fastclock.it.apps." + line), "not rewritten: " + line + "\n" + r);
        }
        // IsolatedCalls is defined only in the loader whose parent is the bootstrap loader (CoverageApp
        // never names it with a class literal), so its one line is the isolated copy's.
        assertEquals(1, count(r.stderr, "rewrote io.fastclock.it.apps.IsolatedCalls"),
                "the isolated loader's IsolatedCalls must be rewritten, and be the only definition\n" + r);
        assertTrue(r.stderr.contains("fastclock: totals: "), "log=debug must report totals at exit\n" + r);
        assertTrue(r.stderr.contains("failures=0"), r.toString());
    }

    /**
     * A fast machine, fed to the agent (Fixtures.fastMachine: clocksource tsc, threshold 1 ms), so
     * that the expectation holds on any host, the slow ones fastclock is for included.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void onAFastMachineAutoRewritesNothingAndSaysWhy(Jdk jdk) throws Exception {
        ForkedJvm.Result r = ForkedJvm.on(jdk).agentArgs("log=debug," + Fixtures.fastMachine()).main(CoverageApp.class).run();
        assertEquals(0, r.exitCode, r.toString());
        List<String> lines = r.agentLines();
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("fastclock: inactive:") && l.contains("clocksource tsc")
                && l.contains("threshold " + Fixtures.MAX_THRESHOLD_NS + " ns")), r.toString());
        assertFalse(r.stderr.contains("rewrote"), "auto rewrote something on a fast machine\n" + r);
        // Either the early check or the full probe answered: nothing installed either way.
        assertTrue(ForkedJvm.onSystemBackends(r.value("backends")), r.toString());
        assertEquals("false", r.value("fastclock.active"), r.toString());
        for (String kind : KINDS) {
            assertEquals("ok", r.value(kind), r.toString());
        }
    }

    /**
     * No agent arguments, default log level: one line on stderr, nothing on stdout. The verdict is
     * the host's (no setting feeds a machine here): inactive with the default threshold named where
     * the clocks are fast, active where they are slow; a clocksource the agent knows to be slow
     * (hpet, acpi_pm: the hosts fastclock is for) must give "active".
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void withDefaultSettingsTheAgentSaysOneLineOnStderrOnly(Jdk jdk) throws Exception {
        ForkedJvm.Result r = ForkedJvm.on(jdk).main(HelloApp.class).run();
        ForkedJvm.Result plain = ForkedJvm.on(jdk).withoutAgent().main(HelloApp.class).run();
        assertEquals(0, r.exitCode, r.toString());
        String[] stderr = r.stderr.trim().split("\n");
        assertEquals(1, stderr.length, "exactly one line on stderr\n" + r);
        boolean active = stderr[0].startsWith("fastclock: active: ");
        assertTrue(active || stderr[0].startsWith("fastclock: inactive: "), r.toString());
        if (!active) {
            assertTrue(stderr[0].contains("threshold 100 ns"), "the line must name the threshold\n" + r);
        }
        if (HostMachine.clocksourceKnownSlow()) {
            assertTrue(active, "clocksource " + HostMachine.currentClocksource() + " is known to be slow\n" + r);
        }
        // stdout holds the application's lines and nothing else: the same keys as without the agent.
        assertEquals(plain.stdout.split("\n").length, r.stdout.split("\n").length, r + "\nwithout the agent:\n" + plain);
        assertEquals(plain.values().keySet(), r.values().keySet(), r.toString());
        assertFalse(r.stdout.contains("fastclock"), "the agent wrote to stdout\n" + r);
        assertEquals(Boolean.toString(active), r.value("active"), r.toString());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void theStartLineIsOneLineAndQuietMeansSilent(Jdk jdk) throws Exception {
        ForkedJvm.Result info = ForkedJvm.on(jdk).agentArgs("mode=on").main(HelloApp.class).run();
        assertEquals(0, info.exitCode, info.toString());
        assertEquals(1, info.agentLines().size(), "exactly one line at start-up\n" + info);
        assertTrue(info.stderr.trim().startsWith("fastclock: active:"), info.toString());
        assertEquals("true", info.value("active"), info.toString());
        assertEquals("", info.stdout.contains("fastclock") ? "agent wrote to stdout" : "", info.toString());

        ForkedJvm.Result quiet = ForkedJvm.on(jdk).agentArgs("mode=on,log=quiet").main(HelloApp.class).run();
        assertEquals(0, quiet.exitCode, quiet.toString());
        assertEquals("", quiet.stderr.trim(), "log=quiet must print nothing\n" + quiet);
        assertEquals("ok", quiet.value("hello"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void modeOffRewritesNothing(Jdk jdk) throws Exception {
        ForkedJvm.Result r = ForkedJvm.on(jdk).slowClocksource(0).agentArgs("mode=off,log=debug").main(HelloApp.class).run();
        assertEquals(0, r.exitCode, r.toString());
        assertEquals(List.of("fastclock: inactive: mode=off"), r.agentLines(), r.toString());
        assertFalse(r.stderr.contains("rewrote"), r.toString());
        assertEquals("false", r.value("active"));
        // "off: do nothing" (activation.off): not even the runtime classes in the boot loader.
        assertEquals("none", r.value("backends"), "mode=off installed the runtime\n" + r);

        ForkedJvm.Result quiet = ForkedJvm.on(jdk).agentArgs("mode=off,log=quiet").main(HelloApp.class).run();
        assertEquals(0, quiet.exitCode, quiet.toString());
        assertEquals("", quiet.stderr.trim(), "log=quiet must print nothing\n" + quiet);
        assertEquals("false", quiet.value("active"), quiet.toString());
    }

    @TempDir
    Path temp;

    static List<Arguments> cpusWithoutAnInvariantTsc() {
        List<Arguments> cases = new ArrayList<>();
        for (Jdk jdk : Jdk.all()) {
            cases.add(Arguments.of(jdk, "nonstop_tsc"));
            cases.add(Arguments.of(jdk, "constant_tsc"));
        }
        return cases;
    }

    /** An hpet machine whose CPU lacks the flag: the no-nonstop-tsc fixture, or hpet-healthy-tsc without constant_tsc. */
    private Path machineLacking(String flag) throws Exception {
        if (flag.equals("nonstop_tsc")) {
            return Fixtures.machine("no-nonstop-tsc");
        }
        Path machine = Fixtures.copy("hpet-healthy-tsc", temp.resolve("machine"));
        Fixtures.removeCpuFlag(machine, flag);
        return machine;
    }

    /**
     * The TSC needs constant_tsc and nonstop_tsc; without it, auto (activated by the slow clocks) moves
     * currentTimeMillis to the coarse clock but leaves nanoTime on the system clock, because a coarse
     * nanoTime is used only when asked for by name, and then with a warning.
     */
    @ParameterizedTest(name = "{0} without {1}")
    @MethodSource("cpusWithoutAnInvariantTsc")
    void withoutAnInvariantTscNanoTimeStaysOnTheSystemClockUnlessCoarseIsNamed(Jdk jdk, String flag) throws Exception {
        Path machine = machineLacking(flag);
        ForkedJvm.Result r = ForkedJvm.on(jdk).slowClocksource(0).agentArgs(Fixtures.settings(machine))
                .main(HelloApp.class).run();
        assertEquals(0, r.exitCode, r.toString());
        assertEquals("millis=coarse,nanos=system", r.value("backends"), r.toString());
        assertEquals(1, r.agentLines().size(), r.toString());
        String line = r.agentLines().get(0);
        assertTrue(line.startsWith("fastclock: active: currentTimeMillis -> coarse, nanoTime -> system ("), line);
        assertTrue(line.contains("TSC not used: the CPU lacks " + flag), "the line must name the missing flag\n" + r);

        ForkedJvm.Result named = ForkedJvm.on(jdk).slowClocksource(0)
                .agentArgs(Fixtures.settings(machine) + ",nanos=coarse").main(HelloApp.class).run();
        assertEquals(0, named.exitCode, named.toString());
        assertEquals("millis=coarse,nanos=coarse", named.value("backends"), named.toString());
        List<String> lines = named.agentLines();
        assertEquals(2, lines.size(), "a warning, then the start line\n" + named);
        assertTrue(lines.get(0).startsWith("fastclock: nanos=coarse: nanoTime will tick only once per kernel tick ("),
                "nanos=coarse must warn\n" + named);
        assertTrue(lines.get(1).startsWith("fastclock: active: currentTimeMillis -> coarse, nanoTime -> coarse ("),
                named.toString());
    }

    private static int count(String haystack, String needle) {
        int n = 0;
        for (int i = haystack.indexOf(needle); i >= 0; i = haystack.indexOf(needle, i + 1)) {
            n++;
        }
        return n;
    }
}
