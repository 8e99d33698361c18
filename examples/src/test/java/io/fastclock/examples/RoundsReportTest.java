package io.fastclock.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class RoundsReportTest {

    private static final List<DemoPoint> POINTS = DemoPoint.all(1, 1);
    private static final DemoPoint MILLIS = POINTS.get(0);
    private static final DemoPoint STAMPS = POINTS.get(4);

    private static void rounds(RoundsReport report, DemoPoint point, SetUp setUp, String agent, double... ns) {
        for (double n : ns) {
            report.add(point, setUp, new Sample(n, point == STAMPS ? 0 : -1, agent, agent));
        }
    }

    @Test
    void eachGroupIsATableWithTheAgentAgainstItsBaseAndTheLoad() {
        RoundsReport report = new RoundsReport(List.of(SetUp.PLAIN, SetUp.AGENT, SetUp.SLOW, SetUp.SLOW_AGENT));
        rounds(report, MILLIS, SetUp.PLAIN, null, 48, 50, 52, 49);
        rounds(report, MILLIS, SetUp.AGENT, "false", 49, 51, 47, 50);
        rounds(report, MILLIS, SetUp.SLOW, null, 330, 335, 340, 351);
        rounds(report, MILLIS, SetUp.SLOW_AGENT, "true", 40, 41, 42, 43);
        report.load(MILLIS, 1.5);
        String tables = report.tables("clock", List.of(MILLIS));
        String[] lines = tables.split(System.lineSeparator());
        assertEquals("Without the simulator", lines[0]);
        assertTrue(lines[1].matches("clock +\\| threads \\| +plain \\| +agent \\| agent vs plain +\\| load"), lines[1]);
        assertTrue(lines[3].matches("currentTimeMillis \\| +1 \\| +49\\.5 ±4% \\| +49\\.5 ±4% \\| "
                + RoundsReport.AGENT_INACTIVE + " \\| 1\\.50"), lines[3]);
        assertEquals("Under the simulator", lines[5]);
        assertTrue(lines[6].contains("simulator+agent vs simulator"), lines[6]);
        assertTrue(lines[8].contains("| 8.1x faster (7.7x to 8.8x)"), lines[8]);
        assertFalse(report.anyBeforeVerdict());
    }

    @Test
    void anInactiveAgentGetsNoRatioHoweverItsRoundsDifferedFromPlain() {
        RoundsReport report = new RoundsReport(List.of(SetUp.PLAIN, SetUp.AGENT));
        // A busy machine: the agent's JVM compiled late, every round twice plain's (a ratio by the rules).
        rounds(report, MILLIS, SetUp.PLAIN, null, 25, 26, 27, 25);
        rounds(report, MILLIS, SetUp.AGENT, "false", 50, 52, 51, 55);
        assertTrue(Comparison.of(report.spread(MILLIS, SetUp.PLAIN), report.spread(MILLIS, SetUp.AGENT)).contains("slower"));
        String row = report.tables("clock", List.of(MILLIS)).split(System.lineSeparator())[3];
        assertTrue(row.contains("| " + RoundsReport.AGENT_INACTIVE + " |"), row);
        assertFalse(row.contains("slower"), row);
    }

    @Test
    void anAgentActiveInOneRoundIsCompared() {
        RoundsReport report = new RoundsReport(List.of(SetUp.PLAIN, SetUp.AGENT));
        rounds(report, MILLIS, SetUp.PLAIN, null, 25, 26, 27, 25);
        rounds(report, MILLIS, SetUp.AGENT, "false", 50, 52, 51);
        rounds(report, MILLIS, SetUp.AGENT, "true", 55);
        String row = report.tables("clock", List.of(MILLIS)).split(System.lineSeparator())[3];
        assertTrue(row.contains("slower"), row);
    }

    @Test
    void aSetUpAloneHasNoRatio() {
        RoundsReport report = new RoundsReport(List.of(SetUp.SLOW));
        rounds(report, MILLIS, SetUp.SLOW, null, 330, 335);
        String tables = report.tables("clock", List.of(MILLIS));
        assertTrue(tables.startsWith("Under the simulator"), tables);
        assertFalse(tables.contains(" vs "), tables);
        assertFalse(tables.contains("Without"), tables);
    }

    @Test
    void anAgentsRoundsBeforeItsVerdictAreMarked() {
        RoundsReport report = new RoundsReport(List.of(SetUp.SLOW, SetUp.SLOW_AGENT));
        rounds(report, MILLIS, SetUp.SLOW, null, 330, 335);
        rounds(report, MILLIS, SetUp.SLOW_AGENT, null, 300);
        rounds(report, MILLIS, SetUp.SLOW_AGENT, "true", 40);
        assertTrue(report.anyBeforeVerdict());
        assertEquals("170.0 ±76%" + RoundsReport.BEFORE_VERDICT_MARK, report.cell(MILLIS, SetUp.SLOW_AGENT));
        assertEquals("332.5 ±1%", report.cell(MILLIS, SetUp.SLOW), "the simulator alone has no agent to wait for");
    }

    @Test
    void stampsGoingBackwardsAreSummedPerSetUpWhereARowChecksThem() {
        RoundsReport report = new RoundsReport(List.of(SetUp.PLAIN, SetUp.AGENT));
        rounds(report, STAMPS, SetUp.PLAIN, null, 40, 41);
        report.add(STAMPS, SetUp.AGENT, new Sample(40, 2, "true", "true"));
        report.add(STAMPS, SetUp.AGENT, new Sample(40, 1, "true", "true"));
        assertEquals("plain 0, agent 3", report.backwards(List.of(STAMPS)));
        assertNull(report.backwards(List.of(MILLIS)));
    }
}
