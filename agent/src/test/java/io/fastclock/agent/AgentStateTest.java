package io.fastclock.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

class AgentStateTest {
    @Test
    void theLiveStateIsTheAgentsNotTheSystemProperties() {
        String key = AgentState.TSC_REANCHORS;
        String old = System.getProperty(key);
        try {
            System.setProperty(key, "999");
            assertNull(AgentState.get(key), "read back from a system property any code can set");
            AgentState.set(key, "3");
            assertEquals("3", AgentState.get(key));
            assertEquals("3", System.getProperty(key), "the informational mirror");
            System.setProperty(key, "999");
            assertEquals("3", AgentState.get(key));
        } finally {
            if (old == null) {
                System.clearProperty(key);
            } else {
                System.setProperty(key, old);
            }
        }
    }
}
