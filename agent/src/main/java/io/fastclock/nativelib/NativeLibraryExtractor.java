package io.fastclock.nativelib;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Locale;
import java.util.Set;

/**
 * Copies the bundled libfastclock.so out of the jar so it can be loaded, in a way no other local
 * user can interfere with: a fresh directory with a random name created owner-only (rwx------) in
 * one step, the file created there with CREATE_NEW (fails rather than following or reusing
 * anything planted), and both checked after the fact to be what we created and not links.
 */
public final class NativeLibraryExtractor {
    public static final String LIBRARY_FILE = "libfastclock.so";
    private static final String REMEDY = "point java.io.tmpdir at a writable local directory or fastclock.library"
            + " at an installed libfastclock.so";

    private NativeLibraryExtractor() {}

    /** Resource path of the library for this OS and architecture. */
    public static String resourcePath() {
        return "META-INF/native/" + platform() + "/" + LIBRARY_FILE;
    }

    public static String platform() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        if (arch.equals("amd64") || arch.equals("x86_64")) {
            arch = "x86_64";
        } else if (arch.equals("aarch64") || arch.equals("arm64")) {
            arch = "aarch64";
        }
        return (os.startsWith("linux") ? "linux" : os.replace(' ', '_')) + "-" + arch;
    }

    /**
     * @param tempRoot directory to create the private directory in (java.io.tmpdir by default)
     * @return the extracted library; the caller deletes it (and its directory) after loading
     */
    public static Path extract(Path tempRoot) throws IOException {
        String resource = resourcePath();
        byte[] library = AgentResources.read(resource);
        if (library == null) {
            throw new IOException("no native library for " + platform() + " in the agent jar (" + resource + ")");
        }
        Set<PosixFilePermission> ownerOnlyDir = PosixFilePermissions.fromString("rwx------");
        Path dir = createPrivateDirectory(tempRoot, ownerOnlyDir);
        Path file = dir.resolve(LIBRARY_FILE);
        try {
            checkPrivate(dir, ownerOnlyDir, true);
            // Only this user can create entries in the directory just made and checked, so a plain
            // FileOutputStream (no NIO channel classes to load at start-up) cannot be redirected;
            // the file is checked again below all the same.
            if (Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
                throw new FileAlreadyExistsException(file.toString());
            }
            try (OutputStream out = new FileOutputStream(file.toFile())) {
                out.write(library);
            } catch (IOException e) {
                throw cannotWrite(file, e);
            }
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("r-x------"));
            checkPrivate(file, PosixFilePermissions.fromString("r-x------"), false);
            return file;
        } catch (IOException | RuntimeException e) {
            deleteQuietly(file);
            deleteQuietly(dir);
            throw e;
        }
    }

    /**
     * mkdir with owner-only permissions under a random name, retried on collision. Not
     * Files.createTempDirectory: its SecureRandom costs 30-60 ms of JVM start-up here. The name
     * need not be unguessable for safety: mkdir fails on anything already there (a planted
     * directory, file or link), and the result is checked afterwards.
     */
    static Path createPrivateDirectory(Path tempRoot, Set<PosixFilePermission> permissions) throws IOException {
        IOException last = null;
        for (int attempt = 0; attempt < 16; attempt++) {
            long random = mix(System.nanoTime() + 0x9E3779B97F4A7C15L * (attempt + 1)
                    ^ ((long) System.identityHashCode(new Object()) << 32));
            Path dir = tempRoot.resolve("fastclock-" + Long.toUnsignedString(random, 36));
            try {
                return Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(permissions));
            } catch (FileAlreadyExistsException e) {
                last = e;
            } catch (IOException | UnsupportedOperationException e) {
                throw new IOException("cannot create a private directory in " + tempRoot + " (" + e + "); " + REMEDY, e);
            }
        }
        throw last;
    }

    /** A full disk, a quota: names the file and what the user can do (the JDK's message has neither). */
    private static IOException cannotWrite(Path file, IOException e) {
        return new IOException("cannot write " + file + " (" + e.getMessage() + "); " + REMEDY, e);
    }

    /** SplitMix64's finaliser: spreads the bits of the seed (no Random/SecureRandom to load). */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /**
     * Writes a new file in a private directory with CREATE_NEW and NOFOLLOW_LINKS, then gives it the
     * permissions asked for and checks it is the regular file we created.
     */
    static Path writePrivateFile(InputStream in, Path dir, String name, String permissions) throws IOException {
        Path file = dir.resolve(name);
        try (OutputStream out = Files.newOutputStream(file, StandardOpenOption.CREATE_NEW,
                StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS)) {
            in.transferTo(out);
        } catch (IOException e) {
            deleteQuietly(file); // the caller never learns the name of a half-written file
            throw cannotWrite(file, e);
        }
        Set<PosixFilePermission> expected = PosixFilePermissions.fromString(permissions);
        try {
            Files.setPosixFilePermissions(file, expected);
            checkPrivate(file, expected, false);
        } catch (IOException | RuntimeException e) {
            deleteQuietly(file);
            throw e;
        }
        return file;
    }

    static void checkPrivate(Path path, Set<PosixFilePermission> expected, boolean directory) throws IOException {
        PosixFileAttributes attributes = Files.readAttributes(path, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        if (attributes.isSymbolicLink() || attributes.isDirectory() != directory
                || (!directory && !attributes.isRegularFile())) {
            throw new FileAlreadyExistsException(path.toString(), null, "is not the " + (directory ? "directory" : "file")
                    + " fastclock created");
        }
        if (!attributes.permissions().equals(expected)) {
            throw new IOException(path + " has permissions " + PosixFilePermissions.toString(attributes.permissions())
                    + ", expected " + PosixFilePermissions.toString(expected));
        }
        String me = System.getProperty("user.name");
        if (me != null && !attributes.owner().getName().equals(me)) {
            throw new IOException(path + " is owned by " + attributes.owner().getName() + ", not " + me);
        }
    }

    /** Removes the extracted file and its private directory (a loaded library stays mapped). */
    public static void cleanUp(Path file) {
        if (file == null) {
            return;
        }
        deleteQuietly(file);
        deleteQuietly(file.getParent());
    }

    static void deleteQuietly(Path path) {
        if (path == null) {
            return;
        }
        try {
            Files.deleteIfExists(path);
        } catch (IOException ignored) {
            // best effort: a leftover private directory harms nobody
        }
    }

    public static Path defaultTempRoot() {
        return Paths.get(System.getProperty("java.io.tmpdir", "/tmp"));
    }
}
