package io.fastclock.entry;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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

    private static byte[] bytes(AgentEntry entries, String name) throws IOException {
        return entries.entry(name);
    }

    @Test
    void eachStepReadsUpToItsMarkerAndNoFurther() throws Exception {
        File jar = jar();
        try (RandomAccessFile file = new RandomAccessFile(jar, "r")) {
            Object[] first = AgentEntry.readJar(file, jar, AgentEntry.ENTRY_END);
            AgentEntry entries = new AgentEntry(first);
            assertArrayEquals("bytes of a".getBytes(StandardCharsets.UTF_8), bytes(entries, "a"));
            assertNull(entries.apply("b"), "beyond the first read");
            Object[] second = AgentEntry.readJar(file, jar, AgentEntry.REGION_END);
            assertTrue(((byte[]) second[0]).length > ((byte[]) first[0]).length);
            entries.read(second);
            assertArrayEquals("bytes of b".getBytes(StandardCharsets.UTF_8), bytes(entries, "b"), "parsed before, found now");
            assertNull(entries.apply("c"), "beyond the second read");
            assertNull(entries.apply("no such entry"));
            AgentEntry whole = new AgentEntry(AgentEntry.readJar(file, jar, null));
            assertArrayEquals("bytes of c".getBytes(StandardCharsets.UTF_8), bytes(whole, "c"));
            assertArrayEquals("bytes of a".getBytes(StandardCharsets.UTF_8), bytes(whole, "a"));
        }
    }

    @Test
    void storedAndDeflatedEntriesReadAlike() throws Exception {
        File jar = jar();
        try (RandomAccessFile file = new RandomAccessFile(jar, "r")) {
            AgentEntry entries = new AgentEntry(AgentEntry.readJar(file, jar, AgentEntry.ENTRY_END));
            assertArrayEquals("bytes of deflated".getBytes(StandardCharsets.UTF_8), bytes(entries, "deflated"));
            assertEquals(0, entries.apply("a")[1], "stored");
            assertEquals(8, entries.apply("deflated")[1], "deflated");
            IOException e = assertThrows(IOException.class, () -> bytes(entries, "b"));
            assertTrue(e.getMessage().contains("lacks"), e.getMessage());
        }
    }

    /** A directory damaged before the marker is refused at the read; one damaged past it finds nothing there. */
    @Test
    void aDamagedDirectoryIsRefusedWhereItIsRead() throws Exception {
        File jar = jar();
        byte[] bytes = Files.readAllBytes(jar.toPath());
        int eocd = bytes.length - 22;
        int cen = (bytes[eocd + 16] & 0xff) | (bytes[eocd + 17] & 0xff) << 8 | (bytes[eocd + 18] & 0xff) << 16 | (bytes[eocd + 19] & 0xff) << 24;
        int[] headers = new int[6];
        for (int n = 0, p = cen; n < 6; n++) {
            headers[n] = p;
            int nameLength = (bytes[p + 28] & 0xff) | (bytes[p + 29] & 0xff) << 8;
            int extra = (bytes[p + 30] & 0xff) | (bytes[p + 31] & 0xff) << 8;
            int comment = (bytes[p + 32] & 0xff) | (bytes[p + 33] & 0xff) << 8;
            p += 46 + nameLength + extra + comment;
        }
        byte[] early = bytes.clone();
        early[headers[1]] = 'X'; // "deflated", before entry-end
        Files.write(jar.toPath(), early);
        try (RandomAccessFile file = new RandomAccessFile(jar, "r")) {
            IOException e = assertThrows(IOException.class, () -> AgentEntry.readJar(file, jar, AgentEntry.ENTRY_END));
            assertTrue(e.getMessage().contains("damaged"), e.getMessage());
        }
        byte[] late = bytes.clone();
        late[headers[5]] = 'X'; // "c", past region-end
        Files.write(jar.toPath(), late);
        try (RandomAccessFile file = new RandomAccessFile(jar, "r")) {
            AgentEntry entries = new AgentEntry(AgentEntry.readJar(file, jar, AgentEntry.REGION_END));
            assertArrayEquals("bytes of b".getBytes(StandardCharsets.UTF_8), bytes(entries, "b"));
            assertNull(entries.apply("c"));
        }
    }

    /** A jar repacked with a comment after its directory is searched for the directory's end, and read alike. */
    @Test
    void aCommentAfterTheDirectoryIsSkipped() throws Exception {
        for (String comment : new String[] {"", "x", "PK\u0005\u0006 not the end", "PK\u0005\u0006" + "a comment that looks like the directory's end".repeat(3),
            "c".repeat(65535)}) {
            File jar = jar(comment);
            try (RandomAccessFile file = new RandomAccessFile(jar, "r")) {
                AgentEntry first = new AgentEntry(AgentEntry.readJar(file, jar, AgentEntry.ENTRY_END));
                assertArrayEquals("bytes of deflated".getBytes(StandardCharsets.UTF_8), bytes(first, "deflated"), "comment of " + comment.length());
                assertNull(first.apply("b"), "comment of " + comment.length());
                AgentEntry whole = new AgentEntry(AgentEntry.readJar(file, jar, null));
                assertArrayEquals("bytes of c".getBytes(StandardCharsets.UTF_8), bytes(whole, "c"));
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
