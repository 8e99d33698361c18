package io.fastclock.probe;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class InterpretedCostTest {

    @Test
    void theTimeIsAPositivePerCallFigure() {
        double ns = InterpretedCost.upperBoundNanosPerCall(false, 1);
        assertTrue(ns > 0 && ns < 1e9, String.valueOf(ns));
    }
}
