package io.fastclock.decide;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ReasonsTest {

    /** The warning the decision gives under nanos=coarse (DecisionMakerTest sees it given only then). */
    @Test
    void coarseNanosWarning() {
        assertEquals("nanos=coarse: nanoTime will tick only once per kernel tick (4 ms resolution)",
                Reasons.coarseNanosWarning(4_000_000));
        assertEquals("nanos=coarse: nanoTime will tick only once per kernel tick (1 ms resolution)",
                Reasons.coarseNanosWarning(1_000_000));
        assertEquals("nanos=coarse: nanoTime will tick only once per kernel tick (3.33 ms resolution)",
                Reasons.coarseNanosWarning(3_333_333));
        assertEquals("nanos=coarse: nanoTime will tick only once per kernel tick (resolution unknown)",
                Reasons.coarseNanosWarning(-1));
    }
}
