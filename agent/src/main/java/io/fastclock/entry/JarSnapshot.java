package io.fastclock.entry;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
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

    private final String jarPath;
    private final byte[] region;
    /** name -> {data offset in region, method, compressed size, size}, or null (AgentEntry's, which parses as asked) */
    private final Function<String, long[]> entries;

    JarSnapshot(String jarPath, byte[] region, Function<String, long[]> entries) {
        this.jarPath = jarPath;
        this.region = region;
        this.entries = entries;
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
        return entries.apply(entry) != null;
    }

    /** The entry's bytes, or null where the jar has no such entry. */
    byte[] read(String entry) throws IOException {
        long[] at = entries.apply(entry);
        if (at != null) {
            return inflate(entry, at);
        }
        long[] digest = entries.apply(entry + DIGEST_SUFFIX);
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
