package io.fastclock.entry;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.zip.CRC32;
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
            for (String name : new String[] {"a", "deflated", AgentEntry.ENTRY_END, "b", AgentEntry.REGION_END, "c"}) {
                byte[] bytes = ("bytes of " + name).getBytes(StandardCharsets.UTF_8);
                ZipEntry entry = new ZipEntry(name);
                if (!name.equals("deflated")) {
                    CRC32 crc = new CRC32();
                    crc.update(bytes);
                    entry.setMethod(ZipEntry.STORED);
                    entry.setSize(bytes.length);
                    entry.setCompressedSize(bytes.length);
                    entry.setCrc(crc.getValue());
                }
                zip.putNextEntry(entry);
                zip.write(bytes);
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
            assertEquals(java.util.Set.of("a", "deflated"), index(first).keySet());
            assertArrayEquals("bytes of a".getBytes(StandardCharsets.UTF_8), AgentEntry.entry((byte[]) first[0], index(first), "a"));
            Object[] second = AgentEntry.readJar(file, jar, AgentEntry.REGION_END);
            assertEquals(java.util.Set.of("a", "deflated", AgentEntry.ENTRY_END, "b"), index(second).keySet());
            assertTrue(((byte[]) second[0]).length > ((byte[]) first[0]).length);
            Object[] whole = AgentEntry.readJar(file, jar, null);
            assertEquals(6, index(whole).size());
            assertArrayEquals("bytes of c".getBytes(StandardCharsets.UTF_8), AgentEntry.entry((byte[]) whole[0], index(whole), "c"));
        }
    }

    @Test
    void storedAndDeflatedEntriesReadAlike() throws Exception {
        File jar = jar();
        try (RandomAccessFile file = new RandomAccessFile(jar, "r")) {
            Object[] first = AgentEntry.readJar(file, jar, AgentEntry.ENTRY_END);
            assertArrayEquals("bytes of deflated".getBytes(StandardCharsets.UTF_8),
                    AgentEntry.entry((byte[]) first[0], index(first), "deflated"));
            assertEquals(0, index(first).get("a")[1], "stored");
            assertEquals(8, index(first).get("deflated")[1], "deflated");
            IOException e = assertThrows(IOException.class, () -> AgentEntry.entry((byte[]) first[0], index(first), "b"));
            assertTrue(e.getMessage().contains("lacks"), e.getMessage());
        }
    }
}
