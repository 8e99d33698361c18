package io.fastclock.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fastclock.rewrite.ClockReplacements.Served;
import io.fastclock.rewrite.ConstantPoolRewriter;
import io.fastclock.rewrite.Rewritten;
import io.fastclock.runtime.FastClock;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;

/** The switch's rows, on FastClock's real bytes: every read and every name of a switched clock, and nothing else. */
class ClockSwitchTest {
    private static byte[] fastClock() throws IOException {
        try (InputStream in = FastClock.class.getResourceAsStream("FastClock.class")) {
            return in.readAllBytes();
        }
    }

    @Test
    void switchingEveryClockLeavesFastClockNoJdkReadAndNoSystemName() throws IOException {
        Rewritten r = new ConstantPoolRewriter(ClockSwitch.rows(EnumSet.allOf(Served.class))).rewrite(fastClock());
        assertEquals(6, r.callSites(), "three reads and three names");
        String pool = new String(r.bytes(), StandardCharsets.ISO_8859_1);
        assertTrue(pool.contains(ClockSwitch.INSTALLED_CLOCKS), "calls InstalledClocks");
        for (String method : new String[] {"currentTimeMillis", "nanoTime", "nanoTimeAdjustment", "millisBackend",
            "nanosBackend", "epochBackend"}) {
            assertTrue(hasMethod(InstalledClocks.class, method), "InstalledClocks." + method);
        }
    }

    @Test
    void switchingOneClockRepointsItsReadAndItsNameOnly() throws IOException {
        Rewritten r = new ConstantPoolRewriter(ClockSwitch.rows(EnumSet.of(Served.NANOS))).rewrite(fastClock());
        assertEquals(2, r.callSites(), "nanoTime and nanosBackend");
        String pool = new String(r.bytes(), StandardCharsets.ISO_8859_1);
        assertTrue(pool.contains("java/lang/System") && pool.contains("currentTimeMillis"), "millis stays the JDK's");
        assertFalse(new String(fastClock(), StandardCharsets.ISO_8859_1).contains(ClockSwitch.INSTALLED_CLOCKS));
    }

    private static boolean hasMethod(Class<?> c, String name) {
        for (java.lang.reflect.Method m : c.getMethods()) {
            if (m.getName().equals(name)) {
                return true;
            }
        }
        return false;
    }
}
