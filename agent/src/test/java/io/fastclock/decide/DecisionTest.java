package io.fastclock.decide;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fastclock.config.Backend;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class DecisionTest {

    @Test
    void decisionIsImmutable() {
        List<String> warnings = new ArrayList<>(Collections.singletonList("w"));
        Choice sys = new Choice(Backend.SYSTEM, "r", 0);
        Decision d = new Decision(sys, new Choice(Backend.TSC, "r", 0), warnings, "s");
        warnings.add("later");
        assertEquals(1, d.warnings().size());
        assertThrows(UnsupportedOperationException.class, () -> d.warnings().add("x"));
        assertTrue(d.active());
        assertFalse(new Decision(sys, sys, warnings, "s").active());
        assertThrows(NullPointerException.class, () -> new Choice(null, "r", 0));
    }
}
