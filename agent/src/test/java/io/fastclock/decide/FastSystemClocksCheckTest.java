package io.fastclock.decide;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fastclock.config.Settings;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Collections;
import org.junit.jupiter.api.Test;

/**
 * The early answer is given only when it is certain. The thresholds used here are 1 ns (no clock
 * can be timed under it) and 1 ms (every clock is under it), so no assertion depends on how fast
 * this machine is.
 */
class FastSystemClocksCheckTest {
    private static Path fixture(String machine) {
        try {
            return Paths.get(FastSystemClocksCheckTest.class.getResource("/fixtures/" + machine).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Settings settings(String machine, String more) {
        Path root = fixture(machine);
        return Settings.parse("sysfs=" + root.resolve("sys") + ",procfs=" + root.resolve("proc") + more,
                Collections.<String, String>emptyMap());
    }

    @Test
    void answersOnAFastClocksourceWhenBothClocksAreUnderTheThreshold() {
        String line = FastSystemClocksCheck.inactiveLine(settings("tsc", ",threshold=1000000"));
        assertNotNull(line);
        assertTrue(line.startsWith("fastclock: inactive: system clocks are fast here (clocksource tsc;"), line);
        assertTrue(line.contains("threshold 1000000 ns"), line);
    }

    @Test
    void leavesItToTheProbeWhenAClockIsOverTheThreshold() {
        assertNull(FastSystemClocksCheck.inactiveLine(settings("tsc", ",threshold=1")));
    }

    @Test
    void leavesItToTheProbeOnAKnownSlowOrUnreadableClocksource() {
        assertNull(FastSystemClocksCheck.inactiveLine(settings("hpet-healthy-tsc", ",threshold=1000000")));
        assertNull(FastSystemClocksCheck.inactiveLine(settings("acpi_pm", ",threshold=1000000")));
        assertNull(FastSystemClocksCheck.inactiveLine(settings("container-no-sys", ",threshold=1000000")));
        assertNull(FastSystemClocksCheck.inactiveLine(settings("garbage", ",threshold=1000000")));
    }

    @Test
    void leavesItToTheProbeWhenAnythingIsNamed() {
        for (String named : new String[] {",mode=on", ",millis=coarse", ",nanos=tsc", ",millis=system",
                ",library=/nonexistent.so"}) {
            assertNull(FastSystemClocksCheck.inactiveLine(settings("tsc", ",threshold=1000000" + named)), named);
        }
    }
}
