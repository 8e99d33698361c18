package io.fastclock.entry;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The entry's read of its jar: up to a marker entry, through one open file. */
class AgentEntryReadTest {
    @TempDir
    Path temp;

    private File jar() throws Exception {
        Path jar = temp.resolve("t.jar");
        try (ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(jar))) {
            for (String name : new String[] {"a", AgentEntry.ENTRY_END, "b", AgentEntry.REGION_END, "c"}) {
                zip.putNextEntry(new ZipEntry(name));
                zip.write(("bytes of " + name).getBytes(StandardCharsets.UTF_8));
                zip.closeEntry();
            }
        }
        return jar.toFile();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, long[]> index(Object[] read) {
        return (Map<String, long[]>) read[1];
    }

    @Test
    void eachStepReadsUpToItsMarkerAndNoFurther() throws Exception {
        File jar = jar();
        try (RandomAccessFile file = new RandomAccessFile(jar, "r")) {
            Object[] first = AgentEntry.readJar(file, jar, AgentEntry.ENTRY_END);
            assertEquals(java.util.Set.of("a"), index(first).keySet());
            assertArrayEquals("bytes of a".getBytes(StandardCharsets.UTF_8), AgentEntry.entry((byte[]) first[0], index(first), "a"));
            Object[] second = AgentEntry.readJar(file, jar, AgentEntry.REGION_END);
            assertEquals(java.util.Set.of("a", AgentEntry.ENTRY_END, "b"), index(second).keySet());
            assertTrue(((byte[]) second[0]).length > ((byte[]) first[0]).length);
            Object[] whole = AgentEntry.readJar(file, jar, null);
            assertEquals(5, index(whole).size());
            assertArrayEquals("bytes of c".getBytes(StandardCharsets.UTF_8), AgentEntry.entry((byte[]) whole[0], index(whole), "c"));
        }
    }
}
