package io.fastclock.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fastclock.it.apps.DemotionApp;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The kernel demotes the TSC while the JVM runs: the agent follows within its re-check period,
 * says so once, and nanoTime never goes backwards, in one thread or across threads, on the way to
 * the system clock.
 *
 * <p>Proves, in docs/CONTRACT.md: activation.fallback, nanos.monotonic, nanos.origin, millis.lag.
 */
class DemotionIT {
    static final long RECHECK_MS = 50;
    /**
     * Wake-up, file read and logging on a shared 2-core machine, on top of the re-check period.
     * The period itself is proven exactly in TscClockTest (simulated time); an anchor thread that
     * re-checked only at its 250 ms re-anchor rounds would need about 250 ms here, past the bound.
     */
    static final long SLACK_MS = 100;
    static final int THREADS = 2;

    /** One JDK: the TSC clock's fallback is its own work, the same on every JDK. */
    static List<Jdk> jdks() {
        return Jdk.one();
    }

    @TempDir
    Path temp;

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void nanoTimeFallsBackToTheSystemClockWithinTheRecheckPeriodWithoutGoingBackwards(Jdk jdk) throws Exception {
        // The test feeds available_clocksource; the TSC clock still needs the host's CPU.
        HostMachine.assumeTscCpu("the TSC clock's demotion");
        Path sys = temp.resolve("sys");
        Path clocksource = sys.resolve("devices/system/clocksource/clocksource0");
        Files.createDirectories(clocksource);
        Files.write(clocksource.resolve("current_clocksource"), "hpet\n".getBytes());
        Path available = clocksource.resolve("available_clocksource");
        Files.write(available, "tsc hpet acpi_pm\n".getBytes());

        ForkedJvm.Result r = ForkedJvm.on(jdk).agentArgs("mode=on,log=debug,recheck=" + RECHECK_MS + ",sysfs=" + sys)
                .main(DemotionApp.class, available.toString(), Integer.toString(THREADS)).run();
        System.out.println("[DemotionIT] " + jdk + ": " + r.stdout.replace('\n', ' '));
        assertEquals(0, r.exitCode, r.toString());
        assertEquals(HostMachine.backendsWithTsc(), r.value("backends"), r.toString());
        assertTrue(r.stderr.contains("fastclock: rewrote io.fastclock.it.apps.DemotionApp ("), "not rewritten\n" + r);
        assertTrue(r.longValue("readsBeforeFallback") > 10_000, "too few reads on the TSC clock\n" + r);

        // (a) Once, naming the cause, within the re-check period (plus slack) of the demotion.
        long disabled = r.agentLines().stream().filter(l -> l.contains("TSC clock disabled")).count();
        assertEquals(1, disabled, "the fallback is logged exactly once\n" + r);
        assertEquals(1, r.longValue("fallbackLines"), "the app's System.err saw the fallback line once\n" + r);
        assertTrue(r.stderr.contains("no longer lists tsc in available_clocksource"), r.toString());
        long latencyUs = r.longValue("fallbackLatencyUs");
        assertTrue(latencyUs >= 0, "no fallback seen\n" + r);
        assertTrue(latencyUs <= (RECHECK_MS + SLACK_MS) * 1000, "fell back " + latencyUs / 1000 + " ms after tsc left"
                + " available_clocksource, with recheck=" + RECHECK_MS + " ms\n" + r);

        // (b) Never backwards, and within 100 us of System.nanoTime through it all (nanos.origin)
        // (the floor is taken at the moment of fallback, at most 20 us ahead).
        assertEquals(0, r.longValue("backwardsSingleThread"), r.toString());
        assertEquals(0, r.longValue("backwardsAcrossThreads"), r.toString());
        assertTrue(r.longValue("worstDeviationNs") <= 100_000, "nanoTime left System.nanoTime's window\n" + r);

        // (c) Really on the system clock afterwards: every read inside its own bracket.
        assertTrue(r.longValue("postFallbackReads") > 10_000, "too few reads after the fallback\n" + r);
        assertEquals(0, r.longValue("postFallbackOutside"), "after the fallback, reads outside [before, after] of"
                + " System.nanoTime\n" + r);

        // (d) millis within [reference - L, reference + 1 ms] throughout, L as stated at start-up.
        Matcher lag = Pattern.compile("lag up to ([0-9]+) ms").matcher(r.stderr);
        assertTrue(lag.find(), "the start line states the millis lag\n" + r);
        long lagMs = Long.parseLong(lag.group(1));
        assertTrue(r.longValue("millisWorstBehindMs") <= lagMs, "millis lagged more than " + lagMs + " ms\n" + r);
        assertTrue(r.longValue("millisWorstAheadMs") <= 1, "millis more than 1 ms ahead\n" + r);
    }
}
