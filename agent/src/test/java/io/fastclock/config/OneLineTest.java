package io.fastclock.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OneLineTest {
    @Test
    void controlCharactersAreEscapedAndPlainTextIsLeftAlone() {
        String plain = "fastclock.mode=on /tmp/x é";
        assertSame(plain, OneLine.escape(plain));
        assertEquals("a\\u000ab\\u000dc\\u0009d\\u007fe\\u0085f\\u2028g", OneLine.escape("a\nb\rc\td\u007fe\u0085f\u2028g"));
    }

    /** The boot runtime's copy of the rule (it cannot use this class) escapes exactly what this one does. */
    @Test
    void theBootRuntimeEscapesEveryCharacterAsTheAgentDoes() {
        for (int c = 0; c <= Character.MAX_VALUE; c++) {
            String s = "a" + (char) c + "b";
            assertEquals(OneLine.escape(s), io.fastclock.boot.BootLog.escape(s), "U+" + Integer.toHexString(c));
        }
    }

    @Test
    void thePrefixIsAddedOnceAndTakenOff() {
        assertEquals("fastclock: inactive: mode=off", OneLine.prefixed("inactive: mode=off"));
        assertEquals("fastclock: inactive: mode=off", OneLine.prefixed("fastclock: inactive: mode=off"));
        assertEquals("inactive: mode=off", OneLine.withoutPrefix("fastclock: inactive: mode=off"));
        assertEquals("inactive: mode=off", OneLine.withoutPrefix("inactive: mode=off"));
    }

    @Test
    void aPropertyNameWithANewlineStaysOnTheMessagesLine() {
        Map<String, String> props = new HashMap<>();
        props.put("fastclock.fo\no", "1");
        String message = assertThrowsSettings(props);
        assertFalse(message.contains("\n") || message.contains("\r"), message);
        props.clear();
        props.put("fastclock.mode", "o\r\nn");
        message = assertThrowsSettings(props);
        assertFalse(message.contains("\n") || message.contains("\r"), message);
    }

    private static String assertThrowsSettings(Map<String, String> props) {
        try {
            Settings.parse(null, props);
        } catch (SettingsException e) {
            return e.getMessage();
        }
        throw new AssertionError("no SettingsException for " + props);
    }
}
