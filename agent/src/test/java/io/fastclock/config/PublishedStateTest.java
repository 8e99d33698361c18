package io.fastclock.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The published state's names, written once, are what the settings parser steps over. */
class PublishedStateTest {
    /**
     * In a JVM where the agent runs, its mirror is in the system properties: reading settings from
     * them again (detach reads log=) must not fail on any published name. fastclock.millisLagMs,
     * written apart from the parser's own list, once did ("unknown setting 'millisLagMs'").
     */
    @Test
    void noPublishedNameIsReadAsASetting() {
        Map<String, String> props = new HashMap<>();
        for (String name : PublishedState.ALL) {
            props.put(name, "12");
        }
        props.put(PublishedState.MILLIS, "coarse");
        props.put(PublishedState.NANOS, "tsc");
        props.put("fastclock.log", "quiet");
        Settings s = Settings.parse(null, props);
        assertEquals(Settings.Log.QUIET, s.log());
        assertEquals(Settings.Millis.COARSE, s.millis());
    }

    @Test
    void everySettingIsReadAndTheStatesGroupsAreNot() {
        for (String key : Settings.KEYS) {
            assertFalse(Settings.isPublishedState(Settings.PROPERTY_PREFIX + key), key);
        }
        assertTrue(Settings.isPublishedState("fastclock.tsc.somethingLater"));
        assertTrue(Settings.isPublishedState("fastclock.jdk.somethingLater"));
        assertTrue(Settings.isPublishedState("fastclock.retransform.somethingLater"));
        assertFalse(Settings.isPublishedState("fastclock.jdk"));
    }

    @Test
    void eachNameOnce() {
        assertEquals(PublishedState.ALL.size(), new HashSet<>(PublishedState.ALL).size());
        for (String name : PublishedState.ALL) {
            assertTrue(name.startsWith(Settings.PROPERTY_PREFIX), name);
        }
    }
}
