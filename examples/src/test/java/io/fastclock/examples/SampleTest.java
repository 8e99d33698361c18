package io.fastclock.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SampleTest {

    @Test
    void travelsAsWordsAndBack() {
        Sample s = Sample.parse(new Sample(36.4, 0, "true", "true").words());
        assertEquals(36.4, s.nanosPerOp);
        assertEquals(0, s.backwards);
        assertEquals("true", s.agentAfter);
        assertFalse(s.beforeVerdict());
        Sample undecided = Sample.parse(new Sample(Double.NaN, -1, null, "false").words());
        assertTrue(Double.isNaN(undecided.nanosPerOp));
        assertNull(undecided.agentBefore);
        assertTrue(undecided.beforeVerdict());
        assertThrows(IllegalArgumentException.class, () -> Sample.parse("36.4 0"));
    }
}
