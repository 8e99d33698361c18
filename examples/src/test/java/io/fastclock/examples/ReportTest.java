package io.fastclock.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class ReportTest {

    @Test
    void ratesCarryAUnitPrefix() {
        assertEquals("950 /s", Report.rate(950));
        assertEquals("812 k/s", Report.rate(812_000));
        assertEquals("27.5 M/s", Report.rate(27_500_000));
        assertEquals("1.25 G/s", Report.rate(1.25e9));
        assertEquals("36.4", Report.nanos(36.44));
        assertEquals("-", Report.nanos(Double.NaN), "no figure: a thread finished no operation");
    }

    @Test
    void tableAlignsColumns() {
        String nl = System.lineSeparator();
        String t = new Report.Table("a", "bb").row("xyz", "1").row("q", "22").toString();
        assertEquals("a   | bb" + nl + "----+---" + nl + "xyz |  1" + nl + "q   | 22" + nl, t);
        assertThrows(IllegalArgumentException.class, () -> new Report.Table("a", "b").row("only one"));
    }
}
