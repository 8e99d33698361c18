package io.fastclock.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fastclock.it.apps.SystemNanosApp;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The contract (activation.tsc-checks) uses the TSC only if calibration converged and the cross-CPU check found no TSC going
 * backwards. These run the agent with a libfastclock built to fail one of the checks
 * (native/build.sh: target/faults/, never in the jar): the application runs, nanoTime stays on the
 * system clock, and the start line names the check that failed. The stalled CPU (its reader sleeps
 * 30 s) shows the cross-CPU check bounded by its budget: a check that waited for it would pass late.
 *
 * <p>Proves, in docs/CONTRACT.md: activation.tsc-checks, host.failure-runs.
 */
class TscChecksFaultIT {
    enum Fault {
        CROSSCPU("crosscpu", "the cross-CPU check failed: the TSC went backwards", "worst 1000 ticks"),
        CALIB("calib", "TSC calibration did not converge", "the two halves differ by");
        // A check cut short by busy CPUs (the stallcpu library) is not a fault of the TSC: BusyCpusIT.

        final String library;
        /** DecisionMaker's words for the check, and a detail only the injected fault produces. */
        final String reason;
        final String detail;

        Fault(String library, String reason, String detail) {
            this.library = library;
            this.reason = reason;
            this.detail = detail;
        }
    }

    static List<Arguments> cases() {
        List<Arguments> cases = new ArrayList<>();
        // One JDK: faults of the native library's checks, judged by the same Java on every JDK.
        for (Jdk jdk : Jdk.one()) {
            for (Fault fault : Fault.values()) {
                cases.add(Arguments.of(jdk, fault));
            }
        }
        return cases;
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("cases")
    void modeOnKeepsNanoTimeOnTheSystemClockAndSaysWhy(Jdk jdk, Fault fault) throws Exception {
        assumeTheChecksRun();
        ForkedJvm.Result r = ForkedJvm.on(jdk)
                .agentArgs("mode=on,log=debug,library=" + ForkedJvm.faultLibrary(fault.library) + ","
                        + Fixtures.settings(Fixtures.machine("tsc")))
                .main(SystemNanosApp.class).run();
        assertOnTheSystemClockSayingWhy(r, jdk, fault);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("cases")
    void autoUnderTheSlowClocksourceKeepsNanoTimeOnTheSystemClockAndSaysWhy(Jdk jdk, Fault fault) throws Exception {
        assumeTheChecksRun();
        ForkedJvm.Result r = ForkedJvm.on(jdk).slowClocksource(0)
                .agentArgs("log=debug,library=" + ForkedJvm.faultLibrary(fault.library) + ","
                        + Fixtures.settings(Fixtures.machine("hpet-healthy-tsc")))
                .main(SystemNanosApp.class).run();
        assertOnTheSystemClockSayingWhy(r, jdk, fault);
    }

    /**
     * The injected faults show only where the checks run: the machine's files are fed (a kernel that
     * trusts the TSC), but the CPUID check before them is the real CPU's, so a CPU without an
     * invariant TSC stops there and names that instead (HostMachine).
     */
    private static void assumeTheChecksRun() {
        HostMachine.assumeTscCpu("a fault injected into the TSC checks");
    }

    private static void assertOnTheSystemClockSayingWhy(ForkedJvm.Result r, Jdk jdk, Fault fault) {
        System.out.println("[TscChecksFaultIT] " + jdk + " " + fault + ": " + r.stdout.replace('\n', ' '));
        assertEquals(0, r.exitCode, r.toString());
        String startLine = r.agentLines().stream()
                .filter(l -> l.startsWith("fastclock: active:") || l.startsWith("fastclock: inactive:"))
                .findFirst().orElseThrow(() -> new AssertionError("no start line\n" + r));
        System.out.println("[TscChecksFaultIT] " + jdk + " " + fault + ": " + startLine);
        assertTrue(startLine.contains(fault.reason) && startLine.contains(fault.detail),
                "the start line must name the failed check (" + fault.reason + ")\n" + r);
        assertTrue(r.value("backends").contains("nanos=system"), r.toString());
        assertTrue(!r.stderr.contains("TSC clock disabled"), "a TSC clock was started\n" + r);
        if (startLine.startsWith("fastclock: active:")) {
            assertTrue(r.stderr.contains("fastclock: rewrote io.fastclock.it.apps.ContractApp ("), r.toString());
        }
        // On the system clock itself: every rewritten read inside its bracket of System.nanoTime.
        assertTrue(r.longValue("nanos.reads") > 1000, r.toString());
        assertEquals(0, r.longValue("nanos.worstDeviationNs"), "nanoTime is not the system clock\n" + r);
        assertEquals(0, r.longValue("nanos.backwardsSingleThread"), r.toString());
    }
}
