package io.fastclock.entry;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.fastclock.rewrite.RuntimePackages;
import java.io.File;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * AgentEntry and its helpers share no class (the helpers are defined in a loader that cannot see
 * AgentEntry): what one writes the other reads by layout, and the copies of shared facts are held
 * together here.
 */
class EntryArgumentsTest {
    @TempDir
    Path temp;

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
        Object[] a = AgentEntry.argumentsFor("premain", "x", null, new File("/a.jar"), new byte[0], name -> null, false);
        assertEquals(AgentEntry.LENGTH, a.length);
        assertEquals("premain", a[EntryStart.ENTRY_POINT]);
        assertEquals("/a.jar", a[EntryStart.JAR_PATH]);
    }

    /** The entry's copy of the runtime's packages (it cannot see the runtime), which the module never holds. */
    @Test
    void theRuntimesPackagesAreTheRuntimes() {
        assertArrayEquals(RuntimePackages.PACKAGES, PrivateModule.RUNTIME_PACKAGES);
    }

    /**
     * The entry's loader defines a helper from the read's bytes when it is first named, once, and finds
     * nothing else: not a name outside the helpers' package, not one the read lacks.
     */
    @Test
    void theLoaderDefinesHelpersFromTheReadAlone() throws Exception {
        Path jar = temp.resolve("entry.jar");
        try (ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(jar))) {
            zip.putNextEntry(new ZipEntry(AgentEntry.HELPERS + "EntryLines.classdata"));
            try (InputStream in = EntryLines.class.getResourceAsStream("EntryLines.class")) {
                in.transferTo(zip);
            }
            zip.closeEntry();
            zip.putNextEntry(new ZipEntry(AgentEntry.ENTRY_END));
            zip.closeEntry();
        }
        Object[] read;
        try (RandomAccessFile file = new RandomAccessFile(jar.toFile(), "r")) {
            read = AgentEntry.readJar(file, jar.toFile(), AgentEntry.ENTRY_END);
        }
        AgentEntry loader = new AgentEntry(read);
        Class<?> lines = loader.loadClass(AgentEntry.PACKAGE + "EntryLines");
        assertSame(loader, lines.getClassLoader());
        assertNotSame(EntryLines.class, lines);
        assertSame(lines, loader.loadClass(AgentEntry.PACKAGE + "EntryLines"));
        assertSame(String.class, loader.loadClass("java.lang.String"));
        for (String absent : new String[] {AgentEntry.PACKAGE + "EntryStart", AgentEntry.PACKAGE + "state.EntryLines",
            "io.fastclock.EntryLines", AgentEntry.PACKAGE, "EntryLines", EntryArgumentsTest.class.getName()}) {
            assertThrows(ClassNotFoundException.class, () -> loader.loadClass(absent), absent);
        }
    }
}
