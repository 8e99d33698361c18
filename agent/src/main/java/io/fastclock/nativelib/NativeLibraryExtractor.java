package io.fastclock.nativelib;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Copies native code out of the jar so it can be loaded (the bundled libfastclock.so here, JNA's
 * jar and stub for {@link JnaLoader}: both through {@link Copies}), in a way no other local user can
 * interfere with: under a root whose whole path no other user can change ({@link ExtractionRoot}:
 * java.io.tmpdir, or a per-user place when that is not safe), a fresh directory with a random name
 * created owner-only (rwx------) in one step, each file created there new (fails rather than
 * following or reusing anything planted), and all of them checked after the fact to be what we
 * created and not links.
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
        return extract(ExtractionRoot.of(tempRoot));
    }

    /**
     * @param root where to create the private directory (java.io.tmpdir, or where it says instead)
     * @return the extracted library; the caller deletes it (and its directory) after loading
     */
    public static Path extract(ExtractionRoot root) throws IOException {
        String resource = resourcePath();
        byte[] library = AgentResources.read(resource);
        if (library == null) {
            throw new IOException("no native library for " + platform() + " in the agent jar (" + resource + ")");
        }
        Copies copies = new Copies(root);
        try {
            return copies.add(LIBRARY_FILE, library, "r-x------");
        } catch (IOException | RuntimeException e) {
            copies.close();
            throw e;
        }
    }

    /**
     * Files copied into one fresh private directory: the one way fastclock puts native code on disk.
     * {@link #close()} removes them and the directory (what was loaded stays mapped or open).
     */
    public static final class Copies implements AutoCloseable {
        static final Set<PosixFilePermission> OWNER_ONLY_DIR = PosixFilePermissions.fromString("rwx------");

        public final Path dir;
        private final List<Path> files = new ArrayList<>();

        /** Makes and checks the private directory. */
        public Copies(ExtractionRoot root) throws IOException {
            Path made = root.newPrivateDirectory();
            try {
                checkPrivate(made, OWNER_ONLY_DIR, true);
            } catch (IOException | RuntimeException e) {
                deleteQuietly(made);
                throw e;
            }
            this.dir = made;
        }

        /**
         * Writes a new file {@code name} in the private directory, gives it {@code permissions} and
         * checks it is the regular file written. Only this user can create entries in the directory
         * made and checked above, so a plain FileOutputStream (no NIO channel classes to load at
         * start-up) cannot be redirected; the file is checked all the same.
         */
        public Path add(String name, byte[] bytes, String permissions) throws IOException {
            Path file = dir.resolve(name);
            if (Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
                throw new FileAlreadyExistsException(file.toString());
            }
            files.add(file);
            try (OutputStream out = new FileOutputStream(file.toFile())) {
                out.write(bytes);
            } catch (IOException e) {
                throw cannotWrite(file, e);
            }
            Set<PosixFilePermission> expected = PosixFilePermissions.fromString(permissions);
            Files.setPosixFilePermissions(file, expected);
            checkPrivate(file, expected, false);
            return file;
        }

        @Override
        public void close() {
            for (int i = files.size() - 1; i >= 0; i--) {
                deleteQuietly(files.get(i));
            }
            deleteQuietly(dir);
        }
    }

    /**
     * mkdir with owner-only permissions under a random name, retried on collision. Not
     * Files.createTempDirectory: its SecureRandom costs 30-60 ms of JVM start-up here. The name
     * need not be unguessable for safety: mkdir fails on anything already there (a planted
     * directory, file or link), and the result is checked afterwards.
     */
    static Path createPrivateDirectory(Path tempRoot) throws IOException {
        Set<PosixFilePermission> permissions = Copies.OWNER_ONLY_DIR;
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
                throw new IOException("cannot create a private directory in " + ExtractionRoot.printable(tempRoot.toString())
                        + " (" + ExtractionRoot.printable(e.toString()) + "); " + REMEDY, e);
            }
        }
        throw last;
    }

    /** A full disk, a quota: names the file and what the user can do (the JDK's message has neither). */
    private static IOException cannotWrite(Path file, IOException e) {
        return new IOException("cannot write " + ExtractionRoot.printable(file.toString()) + " ("
                + ExtractionRoot.printable(String.valueOf(e.getMessage())) + "); " + REMEDY, e);
    }

    /** SplitMix64's finaliser: spreads the bits of the seed (no Random/SecureRandom to load). */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
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
        // The process's effective uid, not user.name: a system property is the application's to set
        // while the agent starts beside it (attach, start=background).
        int me = ExtractionRoot.effectiveUid();
        Object owner = Files.getAttribute(path, "unix:uid", LinkOption.NOFOLLOW_LINKS);
        if (me >= 0 && !(owner instanceof Integer && (Integer) owner == me)) {
            throw new IOException(path + " is owned by " + attributes.owner().getName() + ", not by uid " + me);
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
