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

    /** The entry's parse as far as entry-end, and JarSnapshot's lookups on from there, over a read. */
    private static JarSnapshot snapshot(File jar, Object[] read) {
        return new JarSnapshot(jar.getPath(), (byte[]) read[0], AgentEntry.directory((byte[]) read[1], (Integer) read[2], AgentEntry.ENTRY_END));
    }

    @Test
    void eachStepReadsUpToItsMarkerAndNoFurther() throws Exception {
        File jar = jar();
        try (RandomAccessFile file = new RandomAccessFile(jar, "r")) {
            Object[] first = AgentEntry.readJar(file, jar, AgentEntry.ENTRY_END);
            Object[] directory = AgentEntry.directory((byte[]) first[1], (Integer) first[2], AgentEntry.ENTRY_END);
            assertEquals(java.util.Set.of("a", "deflated"), ((java.util.Map<?, ?>) directory[AgentEntry.PARSED]).keySet(),
                    "parsed as far as entry-end");
            assertArrayEquals("bytes of a".getBytes(StandardCharsets.UTF_8), AgentEntry.entry((byte[]) first[0], directory, "a"));
            assertNull(snapshot(jar, first).read("b"), "beyond the first read");
            byte[] second = AgentEntry.region(file, jar, first, AgentEntry.REGION_END);
            assertTrue(second.length > ((byte[]) first[0]).length);
            assertArrayEquals((byte[]) AgentEntry.readJar(file, jar, AgentEntry.REGION_END)[0], second, "from the first read's directory");
            JarSnapshot region = new JarSnapshot(jar.getPath(), second, directory);
            assertArrayEquals("bytes of b".getBytes(StandardCharsets.UTF_8), region.read("b"), "parsed on from entry-end");
            assertArrayEquals("bytes of a".getBytes(StandardCharsets.UTF_8), region.read("a"));
            assertNull(region.read("c"), "beyond the second read");
            assertNull(region.read("no such entry"));
            JarSnapshot whole = snapshot(jar, AgentEntry.readJar(file, jar, null));
            assertArrayEquals("bytes of c".getBytes(StandardCharsets.UTF_8), whole.read("c"));
        }
    }

    @Test
    void storedAndDeflatedEntriesReadAlike() throws Exception {
        File jar = jar();
        try (RandomAccessFile file = new RandomAccessFile(jar, "r")) {
            Object[] first = AgentEntry.readJar(file, jar, AgentEntry.ENTRY_END);
            Object[] directory = AgentEntry.directory((byte[]) first[1], (Integer) first[2], AgentEntry.ENTRY_END);
            byte[] region = (byte[]) first[0];
            assertArrayEquals("bytes of deflated".getBytes(StandardCharsets.UTF_8), AgentEntry.entry(region, directory, "deflated"));
            assertArrayEquals("bytes of deflated".getBytes(StandardCharsets.UTF_8), snapshot(jar, first).read("deflated"));
            assertEquals(0, AgentEntry.located(region, directory, "a")[1], "stored");
            assertEquals(8, AgentEntry.located(region, directory, "deflated")[1], "deflated");
            IOException e = assertThrows(IOException.class, () -> AgentEntry.entry(region, directory, "b"));
            assertTrue(e.getMessage().contains("lacks"), e.getMessage());
        }
    }

    /** JarSnapshot's parse of the directory is AgentEntry's: each finds every entry the other does, at the same place. */
    @Test
    void theSnapshotParsesAsTheEntryDoes() throws Exception {
        File jar = jar();
        try (RandomAccessFile file = new RandomAccessFile(jar, "r")) {
            Object[] whole = AgentEntry.readJar(file, jar, null);
            Object[] all = AgentEntry.directory((byte[]) whole[1], (Integer) whole[2], null);
            Object[] none = AgentEntry.directory((byte[]) whole[1], (Integer) whole[2], "a");
            assertEquals(0, ((java.util.Map<?, ?>) none[AgentEntry.PARSED]).size());
            JarSnapshot fromStart = new JarSnapshot(jar.getPath(), (byte[]) whole[0], none);
            for (String name : new String[] {"c", "a", AgentEntry.ENTRY_END, "deflated", "b", AgentEntry.REGION_END}) {
                assertArrayEquals(AgentEntry.located((byte[]) whole[0], all, name), fromStart.located(name), name);
            }
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
            JarSnapshot region = snapshot(jar, AgentEntry.readJar(file, jar, AgentEntry.REGION_END));
            assertArrayEquals("bytes of b".getBytes(StandardCharsets.UTF_8), region.read("b"));
            assertNull(region.read("c"));
        }
    }

    /** A jar repacked with a comment after its directory is searched for the directory's end, and read alike. */
    @Test
    void aCommentAfterTheDirectoryIsSkipped() throws Exception {
        for (String comment : new String[] {"", "x", "PK\u0005\u0006 not the end", "PK\u0005\u0006" + "a comment that looks like the directory's end".repeat(3),
            "c".repeat(65535)}) {
            File jar = jar(comment);
            try (RandomAccessFile file = new RandomAccessFile(jar, "r")) {
                JarSnapshot first = snapshot(jar, AgentEntry.readJar(file, jar, AgentEntry.ENTRY_END));
                assertArrayEquals("bytes of deflated".getBytes(StandardCharsets.UTF_8), first.read("deflated"), "comment of " + comment.length());
                assertNull(first.read("b"), "comment of " + comment.length());
                JarSnapshot whole = snapshot(jar, AgentEntry.readJar(file, jar, null));
                assertArrayEquals("bytes of c".getBytes(StandardCharsets.UTF_8), whole.read("c"));
            }
        }
    }

    /** Bytes after the directory's end (and its comment), which the JDK's ZipFile accepts too, are skipped. */
    @Test
    void bytesAfterTheDirectorysEndAreSkipped() throws Exception {
        File jar = jar("a comment");
        Files.write(jar.toPath(), "trailing bytes".getBytes(StandardCharsets.UTF_8), java.nio.file.StandardOpenOption.APPEND);
        try (RandomAccessFile file = new RandomAccessFile(jar, "r")) {
            JarSnapshot whole = snapshot(jar, AgentEntry.readJar(file, jar, null));
            assertArrayEquals("bytes of c".getBytes(StandardCharsets.UTF_8), whole.read("c"));
        }
    }

    /** The jar's file from its URL's path as the class path writes it: the same file new File(URL.toURI()) gives. */
    @Test
    void theJarsFileFromItsUrlPath() throws Exception {
        for (String name : new String[] {"/opt/app/fastclock.jar", "/opt/my app/fast clock.jar", "/tmp/a%b/c#d?e;f+g/x.jar",
            "/tmp/\u00e4\u00f6/\u20ac/\ud83d\ude00.jar", "/tmp/dir/", "/"}) {
            File file = new File(name);
            // File.toURI leaves non-ASCII characters as they are; toASCIIString escapes them, as URLClassPath does
            // up to U+FFFF (above, it escapes each surrogate alone, which the JDK itself cannot load a jar from)
            for (java.net.URL url : new java.net.URL[] {file.toURI().toURL(), new java.net.URL(file.toURI().toASCIIString())}) {
                assertEquals(new File(url.toURI()).getPath(), new File(AgentEntry.filePath(url.getPath())).getPath(), url.toString());
            }
        }
        for (String broken : new String[] {"", "relative/x.jar", "/x%2", "/x%zz.jar", "/x%"}) {
            assertThrows(IOException.class, () -> AgentEntry.filePath(broken), broken);
        }
    }
}
