package io.fastclock.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fastclock.it.apps.StepApp;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The wall clock steps (NTP, date -s) while the application runs: +5 s, then -10 s, through the
 * simulator (which steps CLOCK_REALTIME, CLOCK_REALTIME_COARSE and gettimeofday for everyone,
 * including the JDK's own clock). For every millis backend, the rewritten currentTimeMillis
 * follows each step within one second (millis.steps), and nanoTime does not notice.
 *
 * <p>Proves, in docs/CONTRACT.md: millis.steps, nanos.origin, nanos.monotonic.
 */
class WallClockStepIT {
    /** Steps counted from the simulator's load: +5 s at 2.5 s, -10 s at 4.5 s. */
    static final String STEPS = "2500:+5000,4500:-10000";

    static List<Arguments> cases() {
        List<Arguments> cases = new ArrayList<>();
        // One JDK: following a step is the backends' work (the TSC clock's re-anchoring, the coarse
        // clock's kernel read), the same on every JDK; the rewriting itself is proven on all four elsewhere.
        for (Jdk jdk : Jdk.one()) {
            for (String millis : new String[] {"tsc", "coarse", "jna-coarse", "system"}) {
                cases.add(Arguments.of(jdk, millis));
            }
        }
        return cases;
    }

    @ParameterizedTest(name = "{0} millis={1}")
    @MethodSource("cases")
    void currentTimeMillisFollowsStepsAndNanoTimeDoesNot(Jdk jdk, String millis) throws Exception {
        // The tolerance only needs to tell "followed the step" from "did not" (steps are >= 5 s);
        // 20 ms covers the coarse clock's stated lag (two kernel ticks) with room.
        // jna-coarse serves only where libfastclock does not load, so the TSC is not there for nanos.
        boolean jna = millis.equals("jna-coarse");
        if (millis.equals("tsc")) {
            HostMachine.assumeTscClock("millis=tsc across wall-clock steps");
        }
        ForkedJvm.Result r = ForkedJvm.on(jdk).agentArgs("mode=on,millis=" + millis + (jna ? ",library=/nonexistent.so" : ""))
                .slowClocksource(0).env("SLOWCLOCK_STEPS", STEPS).main(StepApp.class, "6.5", "20").run();
        System.out.println("[WallClockStepIT] " + jdk + " millis=" + millis + ": " + r.stdout.replace('\n', ' '));
        assertEquals(0, r.exitCode, r.toString());
        assertEquals("ok", r.value("done"), r.toString());
        if (millis.equals("system") && !HostMachine.hasTscClock()) {
            // Both clocks on the system clock: the agent is inactive and installs nothing.
            assertTrue(ForkedJvm.onSystemBackends(r.value("backends")), r.toString());
        } else {
            assertTrue(r.value("backends").startsWith("millis=" + millis + ","), r.toString());
            // nanoTime goes to the TSC clock where the host can have one (HostMachine), else stays on the system clock.
            assertTrue(r.value("backends").endsWith(jna || !HostMachine.hasTscClock() ? ",nanos=system" : ",nanos=tsc"),
                    r.toString());
        }
        assertEquals(2, r.longValue("refSteps"), "the simulator's two steps were not both seen\n" + r);
        // Measured between two reads around the step: a reader descheduled there (a loaded machine)
        // adds its pause, so only the size of the step is checked, not the pause.
        assertTrue(Math.abs(r.longValue("millis.step0DeltaMs") - 5000) < 500, r.toString());
        assertTrue(Math.abs(r.longValue("millis.step1DeltaMs") + 10000) < 500, r.toString());
        for (int i = 0; i < 2; i++) {
            long follow = r.longValue("millis.step" + i + "FollowMs");
            assertTrue(follow >= 0 && follow <= 1000, "step " + i + " not followed within 1 s\n" + r);
        }
        assertTrue(r.longValue("millis.longestOffMs") <= 1000, "millis off the wall clock for more than 1 s\n" + r);
        assertEquals(0, r.longValue("nanos.backwards"), "nanoTime went backwards across a wall-clock step\n" + r);
        assertTrue(r.longValue("nanos.worstDeviationNs") <= 100_000,
                "nanoTime more than 100 us from System.nanoTime across wall-clock steps\n" + r);
        for (String line : r.stderr.split("\n")) {
            assertTrue(!line.contains("Exception") && !line.contains("Error"), "something threw\n" + r);
        }
    }
}
