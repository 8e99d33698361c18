package io.fastclock.entry;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fastclock.config.OneLine;
import org.junit.jupiter.api.Test;

class AgentEntryOneLineTest {
    /** The entry's copy of the one-line rule (it cannot call the agent module) escapes exactly what OneLine does. */
    @Test
    void theEntryEscapesEveryCharacterAsTheAgentModuleDoes() {
        for (int c = 0; c <= Character.MAX_VALUE; c++) {
            String s = "a" + (char) c + "b";
            assertEquals(OneLine.escape(s), AgentEntry.oneLine(s), "U+" + Integer.toHexString(c));
            assertEquals(OneLine.escape(s), EntryLines.oneLine(s), "U+" + Integer.toHexString(c));
        }
        assertEquals("Fake\\u000afastclock: forged", AgentEntry.oneLine("Fake\nfastclock: forged"));
    }
}
