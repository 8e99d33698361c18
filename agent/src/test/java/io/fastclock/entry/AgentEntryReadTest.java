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
        return jar(null);
    }

    /** @param comment the zip's comment, or null for none (the build writes none) */
    private File jar(String comment) throws Exception {
        Path jar = temp.resolve("t.jar");
        try (ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(jar))) {
            if (comment != null) {
                zip.setComment(comment);
            }
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

    /** A jar repacked with a comment after its directory is searched for the directory's end, and read alike. */
    @Test
    void aCommentAfterTheDirectoryIsSkipped() throws Exception {
        for (String comment : new String[] {"", "x", "PK\u0005\u0006 not the end", "PK\u0005\u0006" + "a comment that looks like the directory's end".repeat(3),
            "c".repeat(65535)}) {
            File jar = jar(comment);
            try (RandomAccessFile file = new RandomAccessFile(jar, "r")) {
                Object[] first = AgentEntry.readJar(file, jar, AgentEntry.ENTRY_END);
                assertEquals(java.util.Set.of("a", "deflated"), index(first).keySet(), "comment of " + comment.length());
                assertArrayEquals("bytes of deflated".getBytes(StandardCharsets.UTF_8),
                        AgentEntry.entry((byte[]) first[0], index(first), "deflated"));
                Object[] whole = AgentEntry.readJar(file, jar, null);
                assertEquals(6, index(whole).size());
            }
        }
    }

    /** The jar's file from its URL's path as the class path writes it: the same file new File(URL.toURI()) gives. */
    @Test
    void theJarsFileFromItsUrlPath() throws Exception {
        for (String name : new String[] {"/opt/app/fastclock.jar", "/opt/my app/fast clock.jar", "/tmp/a%b/c#d?e;f+g/x.jar",
            "/tmp/\u00e4\u00f6/\u20ac/\ud83d\ude00.jar", "/tmp/dir/", "/"}) {
            File file = new File(name);
            // File.toURI leaves non-ASCII characters as they are; toASCIIString escapes them, as URLClassPath does
            for (java.net.URL url : new java.net.URL[] {file.toURI().toURL(), new java.net.URL(file.toURI().toASCIIString())}) {
                assertEquals(new File(url.toURI()).getPath(), new File(AgentEntry.filePath(url.getPath())).getPath(), url.toString());
            }
        }
        for (String broken : new String[] {"", "relative/x.jar", "/x%2", "/x%zz.jar", "/x%"}) {
            assertThrows(IOException.class, () -> AgentEntry.filePath(broken), broken);
        }
    }
}
