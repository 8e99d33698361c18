package io.fastclock.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The comparability rule: a ratio only where the spread is smaller than the difference. */
class ComparisonTest {

    private static Spread rounds(Double... ns) {
        return Spread.of(List.of(ns));
    }

    @Test
    void identicalSetUpsWhoseRoundsOverlapAreNotCompared() {
        assertEquals(Comparison.NOT_COMPARABLE, Comparison.of(rounds(48.0, 50.0, 52.0, 49.0), rounds(49.0, 51.0, 47.0, 50.0)));
    }

    @Test
    void roundsThatLoadMovedBetweenAreNotCompared() {
        // The case: the machine's load fell on some rounds of each, a 30x "difference" between medians of two.
        assertEquals(Comparison.NOT_COMPARABLE,
                Comparison.of(rounds(2579.2, 70.0, 2400.0, 65.0), rounds(67.7, 2500.0, 68.0, 69.0)));
    }

    @Test
    void roundsOnOneSideOfEachOtherButSpreadWiderThanTheDifferenceAreNotCompared() {
        // Every candidate round was faster, yet one base round 20x slow: the ratio (1.7x) could be anything from 1.4x to 33x.
        assertEquals(Comparison.NOT_COMPARABLE, Comparison.of(rounds(100.0, 105.0, 110.0, 2000.0), rounds(60.0, 62.0, 65.0, 70.0)));
    }

    @Test
    void aRatioWhoseRangeTakesIn1xIsNotGiven() {
        // Medians 1.5x apart and a narrow range, but one base round was faster than the candidate's.
        assertEquals(Comparison.NOT_COMPARABLE, Comparison.of(rounds(90.0, 150.0, 150.0, 160.0), rounds(100.0, 100.0, 100.0, 100.0)));
    }

    @Test
    void aClearGainIsGivenWithItsRange() {
        assertEquals("8.1x faster (7.7x to 8.8x)", Comparison.of(rounds(330.0, 335.0, 340.0, 351.0), rounds(40.0, 41.0, 42.0, 43.0)));
    }

    @Test
    void aClearLossIsGivenWithItsRange() {
        assertEquals("1.98x slower (1.86x to 2.1x)", Comparison.of(rounds(40.0, 41.0, 42.0, 43.0), rounds(80.0, 81.0, 83.0, 84.0)));
    }

    @Test
    void fewerThanTwoRoundsWithAFigureStateNoSpreadAndSoNoRatio() {
        assertEquals(Comparison.NOT_COMPARABLE, Comparison.of(rounds(330.0, Double.NaN, Double.NaN), rounds(40.0, 41.0)));
    }

    @Test
    void factorsKeepTwoSignificantFigures() {
        assertEquals("1.04x", Comparison.factor(1.04));
        assertEquals("6.9x", Comparison.factor(6.93));
        assertEquals("12x", Comparison.factor(12.3));
    }
}
