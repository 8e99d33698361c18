package io.fastclock.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class DemoOptionsTest {

    @Test
    void defaults() {
        DemoOptions o = DemoOptions.parse(new String[0], 8);
        assertEquals(1.0, o.seconds);
        assertEquals(0.5, o.warmupSeconds());
        assertEquals(8, o.maxThreads);
        assertEquals(DemoOptions.Only.ALL, o.only);
        assertFalse(o.quick);
        assertFalse(o.help);
    }

    @Test
    void quickShortensTheRunUnlessSecondsIsGiven() {
        assertEquals(0.3, DemoOptions.parse(new String[] {"--quick"}, 4).seconds);
        assertEquals(0.15, DemoOptions.parse(new String[] {"--quick"}, 4).warmupSeconds());
        assertEquals(0.1, DemoOptions.parse(new String[] {"--seconds", "0.1"}, 4).warmupSeconds());
        assertEquals(2.0, DemoOptions.parse(new String[] {"--seconds", "2", "--quick"}, 4).seconds);
        assertEquals(1.0, DemoOptions.parse(new String[] {"--seconds", "5"}, 4).warmupSeconds());
    }

    @Test
    void threadsOnlyAndHelp() {
        DemoOptions o = DemoOptions.parse(new String[] {"--threads", "3", "--only", "workload", "--help"}, 8);
        assertEquals(3, o.maxThreads);
        assertEquals(DemoOptions.Only.WORKLOAD, o.only);
        assertTrue(o.help);
        assertEquals(DemoOptions.Only.CLOCKS, DemoOptions.parse(new String[] {"--only", "clocks"}, 8).only);
    }

    @Test
    void badValuesNameTheOptionAndWhatIsAccepted() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> DemoOptions.parse(new String[] {"--threads", "0"}, 4));
        assertTrue(e.getMessage().contains("--threads '0'"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> DemoOptions.parse(new String[] {"--seconds", "x"}, 4));
        assertTrue(e.getMessage().contains("--seconds 'x'"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> DemoOptions.parse(new String[] {"--only", "all"}, 4));
        assertTrue(e.getMessage().contains("clocks or workload"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> DemoOptions.parse(new String[] {"--seconds"}, 4));
        assertTrue(e.getMessage().contains("needs a value"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> DemoOptions.parse(new String[] {"--fast"}, 4));
        assertTrue(e.getMessage().contains("--fast"), e.getMessage());
    }
}
