package io.fastclock.entry;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fastclock.rewrite.RuntimePackages;
import java.io.File;
import org.junit.jupiter.api.Test;

/**
 * AgentEntry and its helpers share no class (the helpers are defined in a loader that cannot see
 * AgentEntry): what one writes the other reads by layout, and the copies of shared facts are held
 * together here.
 */
class EntryArgumentsTest {
    @Test
    void theArgumentsLayoutIsOneOnBothSides() {
        assertEquals(AgentEntry.ENTRY_POINT, EntryStart.ENTRY_POINT);
        assertEquals(AgentEntry.ARGUMENTS, EntryStart.ARGUMENTS);
        assertEquals(AgentEntry.INSTRUMENTATION, EntryStart.INSTRUMENTATION);
        assertEquals(AgentEntry.JAR_PATH, EntryStart.JAR_PATH);
        assertEquals(AgentEntry.REGION, EntryStart.REGION);
        assertEquals(AgentEntry.INDEX, EntryStart.INDEX);
        assertEquals(AgentEntry.WHOLE_JAR, EntryStart.WHOLE_JAR);
        assertEquals(AgentEntry.LENGTH, EntryStart.LENGTH);
        assertEquals(AgentEntry.MODULE_NEEDED, EntryStart.MODULE_NEEDED);
        assertEquals(AgentEntry.PREMAIN, EntryLines.PREMAIN);
        assertEquals(AgentEntry.AGENTMAIN, EntryLines.AGENTMAIN);
        assertEquals(AgentEntry.MAIN, EntryLines.MAIN);
        assertEquals(AgentEntry.PARSED, JarSnapshot.PARSED);
        assertEquals(AgentEntry.DIRECTORY, JarSnapshot.DIRECTORY);
        assertEquals(AgentEntry.NEXT_ENTRY, JarSnapshot.NEXT_ENTRY);
        assertEquals(AgentEntry.ENTRIES_LEFT, JarSnapshot.ENTRIES_LEFT);
        Object[] a = AgentEntry.argumentsFor("premain", "x", null, new File("/a.jar"), new byte[0], new Object[0], false);
        assertEquals(AgentEntry.LENGTH, a.length);
        assertEquals("premain", a[EntryStart.ENTRY_POINT]);
        assertEquals("/a.jar", a[EntryStart.JAR_PATH]);
    }

    /** The entry's copy of the runtime's packages (it cannot see the runtime), which the module never holds. */
    @Test
    void theRuntimesPackagesAreTheRuntimes() {
        assertArrayEquals(RuntimePackages.PACKAGES, PrivateModule.RUNTIME_PACKAGES);
    }

    /** Only the helpers that define the module and the runtime wait for the second call. */
    @Test
    void theModulesHelpersAreKnownByName() {
        assertTrue(AgentEntry.forTheModule("PrivateModule$JarModuleReader"));
        assertTrue(AgentEntry.forTheModule("RuntimeSetup"));
        assertTrue(AgentEntry.forTheModule("BackgroundStart"));
        for (String first : new String[] {"EntryStart", "EntrySettings", "FastClocksAtEntry", "EntryState", "OwnLoader",
            "EntryLines", "JarSnapshot"}) {
            assertFalse(AgentEntry.forTheModule(first), first);
        }
    }
}
