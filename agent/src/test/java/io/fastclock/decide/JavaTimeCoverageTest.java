package io.fastclock.decide;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fastclock.config.Backend;
import io.fastclock.config.ClockRead;
import io.fastclock.config.JdkSetting;
import io.fastclock.config.Settings;
import java.util.Collections;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Who serves the JDK's clock reads, for each world, and what the start line and the doctor say of it. */
class JavaTimeCoverageTest {
    static final long TICK_NS = 4_000_000L;

    private static JavaTimeCoverage coverage(Backend millis, Backend nanos, String args) {
        Decision d = new Decision(new Choice(millis, "test", 8_000_000L), new Choice(nanos, "test", 0),
                Collections.emptyList(), "test");
        return JavaTimeCoverage.of(d, Settings.parse(args, (Map<String, String>) null), TICK_NS);
    }

    @Test
    void coarseOnlyByDefault_theMillisReadsFollowAndJavaTimeStays() {
        JavaTimeCoverage c = coverage(Backend.COARSE, Backend.SYSTEM, "");
        assertTrue(c.serves(ClockRead.MILLIS));
        assertFalse(c.serves(ClockRead.EPOCH));
        assertEquals(JdkSetting.TIME, c.scope());
        assertEquals("jdk", c.epochBackend());
        assertEquals("coarse", c.millisReadsBackend());
        assertEquals("java.time stays on the JDK's clock (no TSC clock; instant=coarse would serve it at 4 ms resolution);"
                + " Date/Calendar/Clock.millis -> coarse (jdk=time)", c.account());
    }

    @Test
    void coarseOnlyWithInstantCoarse_theCoarseClockServesJavaTime() {
        JavaTimeCoverage c = coverage(Backend.COARSE, Backend.SYSTEM, "instant=coarse");
        assertTrue(c.serves(ClockRead.EPOCH));
        assertEquals("coarse", c.epochBackend());
        assertEquals("java.time -> coarse at 4 ms resolution (instant=coarse, jdk=time)", c.account());
        assertEquals("jna-coarse", coverage(Backend.JNA_COARSE, Backend.SYSTEM, "instant=coarse").epochBackend());
    }

    @Test
    void withATscClockInstantCoarseDoesNothingAndSaysSo() {
        JavaTimeCoverage c = coverage(Backend.COARSE, Backend.TSC, "instant=coarse");
        assertEquals("tsc", c.epochBackend());
        assertEquals("coarse", c.millisReadsBackend());
        assertEquals("java.time -> tsc (jdk=time); instant=coarse unused: the TSC clock serves java.time at full"
                + " resolution", c.account());
        assertEquals("java.time -> tsc (jdk=time)", coverage(Backend.TSC, Backend.TSC, "").account());
    }

    @Test
    void withoutACoarseOrTscClockNoJdkClassChanges() {
        JavaTimeCoverage c = coverage(Backend.SYSTEM, Backend.COARSE, "nanos=coarse,instant=coarse");
        assertEquals(JdkSetting.NONE, c.scope());
        assertFalse(c.serves(ClockRead.EPOCH));
        assertTrue(c.serves(ClockRead.NANOS));
        assertTrue(c.account().endsWith("instant=coarse unused: currentTimeMillis is not on a coarse clock"), c.account());
        assertFalse(coverage(Backend.SYSTEM, Backend.COARSE, "").serves(ClockRead.NANOS),
                "a coarse nanoTime that was not named");
    }

    @Test
    void jdkNoneChangesNoJdkClassWhateverServes() {
        JavaTimeCoverage c = coverage(Backend.COARSE, Backend.SYSTEM, "jdk=none,instant=coarse");
        assertEquals(JdkSetting.NONE, c.scope());
        assertEquals("jdk", c.epochBackend());
        assertEquals("jdk", c.millisReadsBackend());
        assertTrue(c.account().startsWith("no JDK class changed (jdk=none)"), c.account());
    }
}
