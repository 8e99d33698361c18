package io.fastclock.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class SpreadTest {

    @Test
    void medianAndRangeOfTheRoundsWithAFigure() {
        Spread odd = Spread.of(List.of(52.0, 48.0, Double.NaN, 50.0));
        assertEquals(3, odd.rounds());
        assertEquals(50.0, odd.median());
        assertEquals(48.0, odd.min());
        assertEquals(52.0, odd.max());
        assertEquals(0.04, odd.halfRange(), 1e-12);
        assertEquals("50.0 ±4%", odd.figure());
        assertEquals(49.0, Spread.of(List.of(52.0, 48.0, 50.0, 46.0)).median());
    }

    @Test
    void withoutTwoRoundsThereIsNoSpreadToState() {
        assertEquals("-", Spread.of(List.of(Double.NaN)).figure());
        assertEquals("36.4 (1 round)", Spread.of(List.of(36.4)).figure());
    }
}
