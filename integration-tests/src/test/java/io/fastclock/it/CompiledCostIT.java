package io.fastclock.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fastclock.it.apps.HelloApp;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code auto} decides on what JIT-compiled Java pays for a clock, JNI included, not on the read
 * timed in C. The fault library {@code dearjni} makes the coarse currentTimeMillis dear inside its
 * JNI function (as the lab's guest made the JNI transition dear) while the same read timed in C
 * stays cheap; the machine is the hpet-tsc-demoted fixture under the simulator, where the coarse
 * clock is otherwise chosen (CoarseLagIT).
 *
 * <p>Proves, in docs/CONTRACT.md: activation.auto.
 */
class CompiledCostIT {
    static List<Jdk> jdks() {
        return Jdk.all();
    }

    private static ForkedJvm dearJni(Jdk jdk, String more) {
        Path machine = Fixtures.machine("hpet-tsc-demoted");
        return ForkedJvm.on(jdk).slowClocksource(0).agentArgs(Fixtures.settings(machine) + ",library="
                + ForkedJvm.faultLibrary("dearjni") + more).main(HelloApp.class);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void autoDoesNotPickACoarseClockThatCompiledJavaPaysMoreFor(Jdk jdk) throws Exception {
        ForkedJvm.Result r = dearJni(jdk, "").run();
        assertEquals(0, r.exitCode, r.toString());
        assertEquals("ok", r.value("hello"), r.toString());
        assertTrue(ForkedJvm.onSystemBackends(r.value("backends")), "every clock on the system clock\n" + r);
        assertTrue(r.stderr.contains("fastclock: inactive: "), r.toString());
        // Measured and found dearer, not merely unmeasured (an exhausted budget says "(unmeasured)").
        assertTrue(r.stderr.matches("(?s).*CLOCK_REALTIME_COARSE through JNI was not measurably faster from compiled Java"
                + " \\([0-9.]+ ns a read against [0-9.]+ ns for System\\.currentTimeMillis\\).*"), r.toString());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void aCoarseClockNamedIsHonouredWithItsWarning(Jdk jdk) throws Exception {
        ForkedJvm.Result r = dearJni(jdk, ",millis=coarse").run();
        assertEquals(0, r.exitCode, r.toString());
        assertEquals("millis=coarse,nanos=system", r.value("backends"), r.toString());
        assertTrue(r.stderr.contains("fastclock: millis=coarse is honoured because it was requested, but it costs "),
                r.toString());
        assertEquals("true", r.value("millisPlausible"), r.toString());
    }
}
