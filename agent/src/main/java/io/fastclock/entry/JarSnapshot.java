package io.fastclock.entry;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * fastclock.jar as the entry read it, once, before the application ran (AgentEntry.readJar): every
 * byte the agent defines or loads comes from here. An entry outside what was read (the nested JNA jar,
 * which an agent needs only where its native library cannot load) is read from the jar's path only
 * against the SHA-256 the build wrote beside it ({@code <name>.sha256}, in what was read): a jar
 * replaced after main started is refused, not believed.
 *
 * <p>As a {@code Function}: a class of the agent by its resource name ({@code a/b/C.class}, from its
 * {@code .classdata} entry), any other entry by its own name; null where the jar has none.
 */
final class JarSnapshot implements Function<String, byte[]> {
    static final String CLASSES = "META-INF/fastclock/classes/";
    static final String CLASS_SUFFIX = ".classdata";
    static final String DIGEST_SUFFIX = ".sha256";

    private static final long CENTRAL_HEADER = 0x02014b50L;

    private final String jarPath;
    private final byte[] region;
    /** The directory's entries parsed so far: name -> {local header's offset, method, compressed size, size}. */
    private final Map<String, long[]> parsed;
    private final byte[] directory;
    /** Where the next entry not parsed starts, and how many are left: guarded by this. */
    private int nextEntry;
    private int entriesLeft;

    /**
     * @param directory AgentEntry.directory's answer: the entries it parsed, which this parses on from as
     *     far as the names asked for need (most are the agent's module's classes, which its own thread asks for)
     */
    @SuppressWarnings("unchecked")
    JarSnapshot(String jarPath, byte[] region, Object[] directory) {
        this.jarPath = jarPath;
        this.region = region;
        this.parsed = new HashMap<>((Map<String, long[]>) directory[PARSED]);
        this.directory = (byte[]) directory[DIRECTORY];
        this.nextEntry = (Integer) directory[NEXT_ENTRY];
        this.entriesLeft = (Integer) directory[ENTRIES_LEFT];
    }

    /** AgentEntry.directory's layout (EntryArgumentsTest holds the two together). */
    static final int PARSED = 0;
    static final int DIRECTORY = 1;
    static final int NEXT_ENTRY = 2;
    static final int ENTRIES_LEFT = 3;

    /**
     * An entry's data in the region: {data offset, method, compressed size, size}, or null where the jar
     * has no such entry or its bytes lie beyond the region. The directory is parsed on as far as the name
     * needs; the parse is AgentEntry.directory's (AgentEntryReadTest holds the two together).
     */
    synchronized long[] located(String name) {
        long[] at = parsed.get(name);
        while (at == null && entriesLeft > 0) {
            int p = nextEntry;
            int nameLength = p + 46 <= directory.length && u4(directory, p) == CENTRAL_HEADER ? u2(directory, p + 28) : -1;
            if (nameLength < 0 || p + 46 + nameLength > directory.length) {
                entriesLeft = 0; // damaged past what the entry checked: nothing more is found
                break;
            }
            String entry = EntryLines.latin1(directory, p + 46, nameLength);
            long[] found = {u4(directory, p + 42), u2(directory, p + 10), u4(directory, p + 20), u4(directory, p + 24)};
            if (parsed.putIfAbsent(entry, found) == null && entry.equals(name)) {
                at = found;
            }
            nextEntry = p + 46 + nameLength + u2(directory, p + 30) + u2(directory, p + 32);
            entriesLeft--;
        }
        if (at == null || at[0] + 30 > region.length) {
            return null;
        }
        long dataStart = at[0] + 30 + u2(region, (int) at[0] + 26) + u2(region, (int) at[0] + 28);
        return dataStart + at[2] > region.length ? null : new long[] {dataStart, at[1], at[2], at[3]};
    }

    private static int u2(byte[] b, int i) {
        return (b[i] & 0xff) | (b[i + 1] & 0xff) << 8;
    }

    private static long u4(byte[] b, int i) {
        return (u2(b, i) | (long) u2(b, i + 2) << 16) & 0xffffffffL;
    }

    @Override
    public byte[] apply(String name) {
        try {
            return read(entryName(name));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A class's entry in the jar: its .classdata; any other resource: its own name. */
    static String entryName(String resource) {
        return resource.endsWith(".class") && !resource.startsWith("META-INF/")
                ? CLASSES + resource.substring(0, resource.length() - ".class".length()) + CLASS_SUFFIX
                : resource;
    }

    /** The jar's path, as the JVM named it. */
    String path() {
        return jarPath;
    }

    boolean has(String entry) {
        return located(entry) != null;
    }

    /** The entry's bytes, or null where the jar has no such entry. */
    byte[] read(String entry) throws IOException {
        long[] at = located(entry);
        if (at != null) {
            return inflate(entry, at);
        }
        long[] digest = located(entry + DIGEST_SUFFIX);
        return digest == null ? null : readChecked(entry, new String(inflate(entry + DIGEST_SUFFIX, digest),
                StandardCharsets.US_ASCII).trim().split("\\s+")[0]);
    }

    private byte[] inflate(String entry, long[] at) throws IOException {
        int start = (int) at[0];
        int compressed = (int) at[2];
        int size = (int) at[3];
        if (at[1] == 0) {
            byte[] out = new byte[size];
            System.arraycopy(region, start, out, 0, size);
            return out;
        }
        Inflater inflater = new Inflater(true);
        try {
            inflater.setInput(region, start, compressed);
            byte[] out = new byte[size];
            int n = 0;
            while (n < size) {
                int got = inflater.inflate(out, n, size - n);
                if (got == 0 && (inflater.finished() || inflater.needsInput())) {
                    break;
                }
                n += got;
            }
            if (n != size) {
                throw new IOException("fastclock.jar's " + entry + " is damaged");
            }
            return out;
        } catch (DataFormatException e) {
            throw new IOException("fastclock.jar's " + entry + " is damaged: " + e.getMessage(), e);
        } finally {
            inflater.end();
        }
    }

    /** Read from the jar's path now, and given only if it is what the build made (its SHA-256). */
    private byte[] readChecked(String entry, String expectedSha256) throws IOException {
        byte[] bytes;
        try (JarFile jar = new JarFile(jarPath, false)) {
            JarEntry e = jar.getJarEntry(entry);
            if (e == null) {
                throw new IOException(jarPath + " no longer holds " + entry + ": it was replaced after the JVM started");
            }
            try (InputStream in = jar.getInputStream(e)) {
                bytes = in.readAllBytes();
            }
        }
        String actual;
        try {
            actual = hex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IOException("cannot check " + entry + ": " + e.getMessage(), e);
        }
        if (!actual.equalsIgnoreCase(expectedSha256)) {
            throw new IOException(jarPath + "'s " + entry + " is not the one it held when the JVM started"
                    + " (the jar was replaced or changed since)");
        }
        return bytes;
    }

    private static String hex(byte[] b) {
        StringBuilder sb = new StringBuilder(b.length * 2);
        for (byte x : b) {
            sb.append(Character.forDigit((x >> 4) & 0xf, 16)).append(Character.forDigit(x & 0xf, 16));
        }
        return sb.toString();
    }
}
