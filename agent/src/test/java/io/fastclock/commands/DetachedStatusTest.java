package io.fastclock.commands;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** status after a detach: the figures the agent left behind are not shown as live. */
class DetachedStatusTest {

    private static Properties agentProperties(String active, String reason) {
        Properties p = new Properties();
        p.setProperty("fastclock.started", "agentmain");
        p.setProperty("fastclock.active", active);
        p.setProperty("fastclock.reason", reason);
        p.setProperty("fastclock.nanos", "active".equals(reason) ? "tsc" : "system");
        p.setProperty("fastclock.classes", "12");
        p.setProperty("fastclock.callsites", "34");
        p.setProperty("fastclock.tsc.worstErrorNanos", "-15");
        p.setProperty("fastclock.tsc.reanchors", "49");
        p.setProperty("fastclock.tsc.lastRateChangePpm", "0.086");
        return p;
    }

    private static TargetStatus status(Properties agentProperties) {
        return new TargetStatus(42, new Properties(), agentProperties);
    }

    @Test
    void whileActiveTheFiguresAreShownAsTheyAre() {
        TargetStatus active = status(agentProperties("true", "active: currentTimeMillis -> tsc, nanoTime -> tsc"));
        assertFalse(active.detached());
        String text = active.text();
        assertTrue(text.contains("  rewritten:         12 classes, 34 call sites"), text);
        assertTrue(text.contains("  TSC clock:         worst error -15 ns, 49 re-anchors"), text);
        assertEquals(49L, tscClock(active.toMap()).get("reanchors"));
    }

    @Test
    void afterADetachTheyAreLabelledAsFromBeforeItAndTheJsonLeavesTheTscClocksOut() {
        TargetStatus detached = status(agentProperties("false",
                "detached: original code of 12 classes restored in 3 ms; the application runs on the system clocks"));
        assertTrue(detached.detached());
        String text = detached.text();
        assertTrue(text.contains("  rewritten:         until the detach: 12 classes, 34 call sites"), text);
        assertTrue(text.contains("  TSC clock:         until the detach: worst error -15 ns, 49 re-anchors"), text);
        Map<String, Object> json = detached.toMap();
        Map<String, Object> tsc = tscClock(json);
        // Every field of the schema is there (docs/JSON.md): the figures of a clock nothing reads are null.
        assertEquals(null, tsc.get("worstErrorNs"), json.toString());
        assertEquals(null, tsc.get("reanchors"), json.toString());
        assertEquals(null, tsc.get("lastRateChangePpm"), json.toString());
        assertTrue(tsc.containsKey("reanchors"), json.toString());
        assertEquals(Map.of("backend", "system"), json.get("nanos"));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> tscClock(Map<String, Object> json) {
        return (Map<String, Object>) json.get("tscClock");
    }

    @Test
    void anInactiveVerdictIsNotADetach() {
        assertFalse(status(agentProperties("false", "inactive: system clocks are fast here")).detached());
    }
}
