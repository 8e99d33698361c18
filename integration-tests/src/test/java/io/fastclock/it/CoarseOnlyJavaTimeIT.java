package io.fastclock.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import io.fastclock.it.apps.InstantReseedApp;
import io.fastclock.it.apps.JTimeCoverageApp;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The coarse-only world: a machine whose kernel dropped the TSC (fixture hpet-tsc-demoted), so that
 * currentTimeMillis runs on the coarse clock and no TSC clock runs, under the slow-clocksource
 * simulator, counted per java.time / legacy date entry point (JTimeOps) as JTimeCoverageIT does
 * (which also shows every entry point making one slow read per call without the agent):
 * <ul>
 *   <li>by default, the JDK's millisecond reads (new Date(), Calendar.getInstance(), new
 *       GregorianCalendar(), the system clocks' and InstantSource's millis()) make at most 1% of a
 *       slow read per call, within [reference - L, reference + 1 ms]; Instant.now() and every now()
 *       still make one per call (java.time keeps the JDK's read);</li>
 *   <li>with instant=coarse, those too make at most 1%, within [reference - L, reference + 1 ms], and
 *       Instant.now().toEpochMilli() agrees with currentTimeMillis within L;</li>
 *   <li>java.time re-seeding its offset from the (coarse) currentTimeMillis never makes an Instant
 *       wrong.</li>
 * </ul>
 * L is the lag the start line states ("lag up to L ms", the decision's Choice.lagNs), or one the agent
 * restated before the application's main began. A value or pair past L where the kernel's own
 * CLOCK_REALTIME_COARSE, read just before, was as far behind (a late kernel tick) is printed as a
 * finding, not failed (JTimeCoverageApp, millis.lag), as long as they stay under one in ten.
 *
 * <p>Proves, in docs/CONTRACT.md: reach.java-time, epoch.jdk-otherwise, epoch.coarse-when-named,
 * millis.lag, epoch.agrees-with-millis.
 */
class CoarseOnlyJavaTimeIT {
    static final int OPS = 20_000;
    static final long MAX_READS_WITH_AGENT = OPS / 100;
    /** JTimeOps' entry points whose value is a millisecond read: served by the coarse clock by default. */
    static final List<String> MILLIS_READS = List.of("Clock.systemUTC.millis", "Clock.systemDefaultZone.millis",
            "Clock.system(zone).millis", "InstantSource.system.millis", "new Date", "Calendar.getInstance",
            "new GregorianCalendar");

    static List<Jdk> jdks() {
        return Jdk.all();
    }

    private static String coarseOnlyMachine() {
        return Fixtures.settings(Fixtures.machine("hpet-tsc-demoted"));
    }

    private static ForkedJvm.Result counted(Jdk jdk, String extraArgs) throws Exception {
        return counted(jdk, extraArgs, "millis=coarse,nanos=system");
    }

    /** The counted run; its values are checked against the L this run's start line states (measured each run). */
    private static ForkedJvm.Result counted(Jdk jdk, String extraArgs, String backends) throws Exception {
        SlowReadCount count = SlowReadCount.create();
        ForkedJvm jvm = AgentJars.withJna(ForkedJvm.on(jdk).agentArgs(coarseOnlyMachine() + extraArgs), jdk);
        ForkedJvm.Result r = count.underSimulator(jvm, 0)
                .main(JTimeCoverageApp.class, Integer.toString(OPS), "app", "stated").run();
        count.read();
        assertEquals(0, r.exitCode, r.toString());
        assertEquals("ok", r.value("done"), r.toString());
        // The watch gave the coarse clock up (its kernel ticks came later than the cap): from then on the
        // millis reads are the system clock's, slow by design, and this run cannot show java.time's reach.
        // Only a give-up its own line justifies (a read past L and the cap) skips the test.
        if (r.stderr.contains(StatedLag.GIVEN_UP)) {
            StatedLag.of(r).assertGivenUpPastTheCap(r);
        }
        assumeFalse(r.stderr.contains(StatedLag.GIVEN_UP), () -> "the coarse clock was given up while the test ran: " + r.agentLines());
        assertEquals(backends, r.value("backends"), "not the coarse-only world\n" + r);
        // The L the application checks against: the start line's, or one restated before its main began.
        long lagMs = r.longValue("lagMs");
        StatedLag.of(r).assertPublished(lagMs, r);
        for (Map.Entry<String, String> e : r.values().entrySet()) {
            if (e.getKey().startsWith("value.")) {
                assertEquals("ok", e.getValue(), e.getKey() + " is outside [reference - " + lagMs + " ms, reference + 1 ms]\n" + r);
            }
        }
        // A late kernel tick is rare; an L stated below the clock's usual lag puts many reads past it.
        assertTrue(r.longValue("pastLagWithTheKernel") * 10 <= r.longValue("checkedAgainstTheKernel"), "more than one read or"
                + " pair in ten past L = " + lagMs + " ms: L is below what the coarse clock usually lags\n" + r);
        if (r.longValue("pastLagWithTheKernel") > 0) {
            System.out.println("[CoarseOnlyJavaTimeIT] " + jdk + " finding: " + r.value("pastLagWithTheKernel") + " reads or pairs"
                    + " past L = " + lagMs + " ms where the kernel's own coarse clock was as far behind (a late tick)");
        }
        StatedLag.assertStartLineAndRestatementsOnly(r);
        return r;
    }

    private static Map<String, Long> counts(ForkedJvm.Result r) {
        Map<String, Long> counts = new TreeMap<>();
        r.values().forEach((k, v) -> {
            if (k.startsWith("app.")) {
                counts.put(k.substring("app.".length()), Long.parseLong(v));
            }
        });
        assertEquals(r.longValue("entryPoints"), counts.size(), "not every entry point was counted\n" + r);
        return counts;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void byDefaultTheJdksMillisReadsFollowTheCoarseClockAndJavaTimeKeepsTheJdksRead(Jdk jdk) throws Exception {
        ForkedJvm.Result r = counted(jdk, "");
        Map<String, Long> counts = counts(r);
        System.out.println("[CoarseOnlyJavaTimeIT] " + jdk + " defaults, slow reads per " + OPS + " ops: " + counts
                + "; " + r.agentLines().get(0));
        assertEquals("null", r.value("epoch"), "java.time's epoch read was handed over\n" + r);
        List<String> wrong = new ArrayList<>();
        counts.forEach((name, n) -> {
            boolean millisRead = MILLIS_READS.contains(name);
            if (millisRead && n > MAX_READS_WITH_AGENT) {
                wrong.add(name + " still reaches the slow clock: " + n);
            } else if (!millisRead && n < OPS) {
                wrong.add(name + " left the JDK's read: " + n);
            }
        });
        assertTrue(wrong.isEmpty(), wrong + "\n" + r);
        assertEquals(0, r.longValue("dateAheadOfMillis"), "new Date() does not read the application's"
                + " currentTimeMillis clock\n" + r);
        assertTrue(r.agentLines().get(0).matches(".*; java\\.time stays on the JDK's clock \\(no TSC clock; instant=coarse"
                + " would serve it at [0-9.]+ ms resolution\\); Date/Calendar/Clock\\.millis -> coarse \\(jdk=time\\):"
                + " \\d+ JDK classes changed at start.*"), r.toString());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void instantCoarseHandsJavaTimeToTheCoarseClock(Jdk jdk) throws Exception {
        assertAllServed(counted(jdk, ",instant=coarse"), "coarse");
    }

    /** libfastclock cannot load: currentTimeMillis and, with instant=coarse, java.time on JNA's CLOCK_REALTIME_COARSE. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void instantCoarseWithJnaCoarseHandsJavaTimeToJna(Jdk jdk) throws Exception {
        String args = ",instant=coarse,millis=jna-coarse,library=/nonexistent.so";
        assertAllServed(counted(jdk, args, "millis=jna-coarse,nanos=system"), "jna-coarse");
    }

    private static void assertAllServed(ForkedJvm.Result r, String epoch) {
        long lagMs = r.longValue("lagMs");
        Map<String, Long> counts = counts(r);
        System.out.println("[CoarseOnlyJavaTimeIT] instant=coarse, " + epoch + ", slow reads per " + OPS + " ops: "
                + counts + "; " + r.agentLines().get(0));
        assertEquals(epoch, r.value("epoch"), r.toString());
        List<String> wrong = new ArrayList<>();
        counts.forEach((name, n) -> {
            if (n > MAX_READS_WITH_AGENT) {
                wrong.add(name + "=" + n);
            }
        });
        assertTrue(wrong.isEmpty(), "these still reach the slow clock: " + wrong + "\n" + r);
        assertTrue(r.longValue("agreement.heldUp") < JTimeCoverageApp.VALUE_CHECKS / 2,
                "most pairs held up past L: the agreement was hardly checked\n" + r);
        assertEquals(0, r.longValue("agreement.outside"),
                "Instant.now() and currentTimeMillis differ by more than L = " + lagMs + " ms\n" + r);
        assertTrue(r.agentLines().get(0).matches(".*; java\\.time -> " + epoch + " at [0-9.]+ ms resolution \\(instant=coarse,"
                + " jdk=time\\): \\d+ JDK classes changed at start.*"), r.toString());
    }

    /**
     * A kernel that trusts the TSC (fixture hpet-healthy-tsc), under the simulator: the TSC clock runs,
     * so instant=coarse does nothing and says so. The TSC clock still needs the host's CPU (HostMachine).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void withATscClockInstantCoarseIsUnusedAndSaysSo(Jdk jdk) throws Exception {
        HostMachine.assumeTscCpu("instant=coarse beside a TSC clock");
        String machine = Fixtures.settings(Fixtures.machine("hpet-healthy-tsc"));
        ForkedJvm.Result r = AgentJars.withJna(ForkedJvm.on(jdk).agentArgs("instant=coarse," + machine), jdk)
                .slowClocksource(0).main(JTimeCoverageApp.class, "1", "app").run();
        assertEquals(0, r.exitCode, r.toString());
        assertEquals("tsc", r.value("epoch"), r.toString());
        assertTrue(r.agentLines().get(0).contains("java.time -> tsc (jdk=time): ")
                && r.agentLines().get(0).contains("; instant=coarse unused: the TSC clock serves java.time at full resolution"),
                r.toString());
        JTimeCoverageIT.assertStartLineOnly(r);
    }

    /** -Dfastclock.instant: a good value is taken, a bad one is named with what is accepted and leaves the agent off. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void instantIsReadFromTheSystemPropertyAndABadValueIsNamed(Jdk jdk) throws Exception {
        ForkedJvm.Result good = AgentJars.withJna(ForkedJvm.on(jdk).agentArgs(coarseOnlyMachine())
                .jvmArg("-Dfastclock.instant=coarse"), jdk).slowClocksource(0).main(JTimeCoverageApp.class, "1", "app").run();
        assertEquals(0, good.exitCode, good.toString());
        assertEquals("coarse", good.value("epoch"), good.toString());
        ForkedJvm.Result bad = AgentJars.withJna(ForkedJvm.on(jdk).agentArgs(coarseOnlyMachine())
                .jvmArg("-Dfastclock.instant=fine"), jdk).slowClocksource(0).main(JTimeCoverageApp.class, "1", "app").run();
        assertEquals(0, bad.exitCode, bad.toString());
        assertEquals(List.of("fastclock: bad setting instant=fine (system property fastclock.instant): accepted values are"
                + " auto, coarse; fastclock is off and the application runs on the system clocks"), bad.agentLines(), bad.toString());
        assertEquals("none", bad.value("backends"), bad.toString());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void reseedingJavaTimesOffsetFromTheCoarseMillisNeverMakesAnInstantWrong(Jdk jdk) throws Exception {
        // By default java.time's epoch read is the JDK's, so every Instant must keep epoch.bounds (1 ms)
        // although the offset is re-seeded from the coarse currentTimeMillis each time.
        ForkedJvm.Result r = AgentJars.withJna(ForkedJvm.on(jdk).agentArgs(coarseOnlyMachine() + ",log=debug")
                .jvmArg("--add-opens", "java.base/java.time=ALL-UNNAMED"), jdk)
                .slowClocksource(0).main(InstantReseedApp.class, "5000", "1").run();
        System.out.println("[CoarseOnlyJavaTimeIT] " + jdk + " re-seeds: " + r.stdout.replace('\n', ' '));
        assertEquals(0, r.exitCode, r.toString());
        assertEquals("ok", r.value("done"), r.toString());
        assertEquals("null", r.value("epoch"), r.toString());
        String reseeder = jdk.feature >= 17 ? "java.time.Clock" : "java.time.Clock$SystemClock";
        assertTrue(r.stderr.contains("fastclock: rewrote " + reseeder + " ("), reseeder + " was not rewritten: the test"
                + " would prove nothing\n" + r);
        assertEquals(5000, r.longValue("reseeds"), "the offset was not re-seeded each time\n" + r);
        assertEquals(0, r.longValue("outside"), "an Instant was wrong after a re-seed\n" + r);
    }
}
