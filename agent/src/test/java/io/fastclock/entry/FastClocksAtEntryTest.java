package io.fastclock.entry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.fastclock.config.BackendNames;
import io.fastclock.config.BuildVersion;
import io.fastclock.config.PublishedState;
import io.fastclock.config.Settings;
import io.fastclock.decide.FastSystemClocksCheck;
import io.fastclock.probe.MachineFacts;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.ArrayList;
import java.util.HashMap;
import org.junit.jupiter.api.Test;

/**
 * The entry's answer is the module's FastSystemClocksCheck's, from its own copy of the rule: the same
 * line, the same machines, the same names published. Thresholds of 1 ns and 1 ms keep every
 * assertion independent of this machine's speed.
 */
class FastClocksAtEntryTest {
    private static String machine(String name) {
        try {
            Path root = Paths.get(FastClocksAtEntryTest.class.getResource("/fixtures/" + name).toURI());
            return "sysfs=" + root.resolve("sys") + ",procfs=" + root.resolve("proc");
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The entry answers alone with this line: plain settings and fast clocks. */
    private static String entryLine(String args) {
        EntrySettings settings = EntrySettings.read(args, new HashMap<>(), new HashMap<>());
        return settings.plain() ? FastClocksAtEntry.fastLine(settings) : null;
    }

    private static String moduleLine(String args) {
        return FastSystemClocksCheck.inactiveLine(Settings.parse(args, new HashMap<>(), new HashMap<>()));
    }

    /** The line with its timed figures masked. */
    private static String shape(String line) {
        return line == null ? null : line.replaceAll("\\d+ ns,", "N ns,").replaceAll("nanoTime \\d+ ns", "nanoTime N ns");
    }

    @Test
    void theSameLineAsTheModulesOnTheSameMachines() {
        for (String name : new String[] {"tsc", "hpet-healthy-tsc", "acpi_pm", "container-no-sys", "garbage"}) {
            for (String threshold : new String[] {",threshold=1000000", ",threshold=1"}) {
                String args = machine(name) + threshold;
                assertEquals(shape(moduleLine(args)), shape(entryLine(args)), args);
            }
        }
        assertNotNull(entryLine(machine("tsc") + ",threshold=1000000"));
    }

    @Test
    void notPlainSettingsAreTheModulesToDecide() {
        assertNull(entryLine(machine("tsc") + ",threshold=1000000,jmx=on"));
        assertNull(entryLine(machine("tsc") + ",threshold=1000000,millis=coarse"));
    }

    @Test
    void theKnownSlowClocksourcesAreTheModules() {
        assertEquals(new ArrayList<>(MachineFacts.KNOWN_SLOW_CLOCKSOURCES), Arrays.asList(FastClocksAtEntry.KNOWN_SLOW_CLOCKSOURCES));
    }

    @Test
    void theStateItPublishesIsNamedAsTheModuleNamesIt() {
        assertEquals(PublishedState.STARTED, EntryState.STARTED);
        assertEquals(PublishedState.VERSION, EntryState.VERSION);
        assertEquals(PublishedState.ACTIVE, EntryState.ACTIVE);
        assertEquals(PublishedState.REASON, EntryState.REASON);
        assertEquals(PublishedState.MILLIS, EntryState.MILLIS);
        assertEquals(PublishedState.NANOS, EntryState.NANOS);
        assertEquals(PublishedState.EPOCH, EntryState.EPOCH);
        assertEquals(BackendNames.SYSTEM, EntryState.SYSTEM);
        assertEquals(BuildVersion.UNKNOWN, EntryState.UNKNOWN_VERSION);
    }
}
