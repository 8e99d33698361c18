package io.fastclock.nativelib;

import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Where fastclock makes the fresh private directories it copies its native code into (libfastclock,
 * and JNA's jar and stub): java.io.tmpdir, unless another local user could change some part of its
 * path, in which case it says so in one line and uses a per-user place whose whole path passes the
 * same check.
 *
 * <p>A directory is safe when no other user can rename, replace or add anything along its path:
 * walking it from / one component at a time (links followed, each link checked too), every
 * directory is owned by this user or root and, unless its sticky bit is set, writable by neither
 * its group nor others, and every link is owned by this user or root (in a sticky directory, the
 * owner of an entry can still remove and replace it). A path that cannot be walked (a component
 * missing, not a directory, unreadable) is not refused here: making the private directory in it
 * fails and says why, as before.
 *
 * <p>In place of an unsafe java.io.tmpdir, in this order: $XDG_RUNTIME_DIR (the per-user runtime
 * directory, /run/user/UID, owner-only), /tmp, and ~/.cache (made owner-only if missing), the first
 * whose whole path is safe and where a directory can be made. Each private directory is still made
 * fresh, owner-only, under a random name, and removed once its files are loaded. When none is safe,
 * nothing is extracted: the caller reports the refusal and the application keeps the system clocks.
 *
 * <p>The choice is made once per instance, on first use.
 */
public final class ExtractionRoot {
    private static final int S_IFMT = 0170000;
    private static final int S_IFDIR = 0040000;
    private static final int S_IFLNK = 0120000;
    private static final int S_ISVTX = 01000;
    /** As the kernel's limit on links followed in one lookup. */
    static final int MAX_LINKS = 40;

    static final String REMEDY = "point java.io.tmpdir at a directory that only this user or root can change,"
            + " or fastclock.library at an installed libfastclock.so";

    private final Path requested;
    /** The alternatives in order, and the one made if missing; null until needed (see {@link #of}). */
    private List<Path> alternatives;
    private Path madeIfMissing;
    /** The user whose directories (with root's) count as safe; -2 until needed. */
    private int uid;

    /** Set once chosen: java.io.tmpdir, or the alternative used. */
    private Path root;
    private String notice;
    private String refusal;

    ExtractionRoot(Path requested, List<Path> alternatives, Path madeIfMissing, int uid) {
        this.requested = requested;
        this.alternatives = alternatives;
        this.madeIfMissing = madeIfMissing;
        this.uid = uid;
    }

    /**
     * java.io.tmpdir (the usual requested root) with the alternatives above, for the user this JVM
     * runs as. Nothing is read until a directory is asked for, and the alternatives only when
     * java.io.tmpdir is refused.
     */
    public static ExtractionRoot of(Path requested) {
        return new ExtractionRoot(requested, null, null, -2);
    }

    private void findAlternatives() {
        List<Path> found = new ArrayList<>();
        String runtimeDir = System.getenv("XDG_RUNTIME_DIR");
        if (runtimeDir != null && runtimeDir.startsWith("/")) {
            found.add(Paths.get(runtimeDir));
        }
        found.add(Paths.get("/tmp"));
        String home = System.getProperty("user.home");
        if (home != null && home.startsWith("/")) {
            madeIfMissing = Paths.get(home, ".cache");
            found.add(madeIfMissing);
        }
        alternatives = found;
    }

    /** The root as first asked for (java.io.tmpdir). */
    public Path requested() {
        return requested;
    }

    /**
     * The one line that says java.io.tmpdir was refused and where the files went instead, or null
     * (java.io.tmpdir used, or not looked at yet, or no safe place found: then the failure says so).
     */
    public synchronized String notice() {
        return notice;
    }

    /**
     * A fresh directory that only this user can use (rwx------, checked after the fact), in
     * java.io.tmpdir or, when that is not safe, in the first safe alternative where one can be made.
     */
    synchronized Path newPrivateDirectory() throws IOException {
        if (root != null) {
            return NativeLibraryExtractor.createPrivateDirectory(root);
        }
        if (refusal != null) {
            throw new IOException(refusal);
        }
        if (uid == -2) {
            uid = effectiveUid();
        }
        String unsafe = unsafeReason(requested, uid);
        if (unsafe == null) {
            root = requested; // where making the directory fails, the failure says why, as before
            return NativeLibraryExtractor.createPrivateDirectory(root);
        }
        if (alternatives == null) {
            findAlternatives();
        }
        String refused = "java.io.tmpdir " + printable(requested.toString()) + " is not safe for fastclock's native code: "
                + unsafe;
        List<String> tried = new ArrayList<>();
        for (Path candidate : alternatives) {
            if (candidate.equals(requested)) {
                continue;
            }
            try {
                makeIfMissing(candidate);
                String why = unsafeReason(candidate, uid);
                if (why != null) {
                    tried.add(why);
                    continue;
                }
                Path dir = NativeLibraryExtractor.createPrivateDirectory(candidate);
                root = candidate;
                notice = refused + "; extracted under " + printable(candidate.toString()) + " instead";
                return dir;
            } catch (IOException | RuntimeException e) {
                Throwable cause = e.getCause() != null ? e.getCause() : e; // without the remedy, said once below
                tried.add(printable(candidate.toString()) + ": " + printable(cause.toString()));
            }
        }
        refusal = refused + "; no other place will do either (" + (tried.isEmpty() ? "none to try" : String.join("; ", tried))
                + "); " + REMEDY;
        throw new IOException(refusal);
    }

    /** ~/.cache, made owner-only where it is missing and the home directory is safe. */
    private void makeIfMissing(Path candidate) throws IOException {
        if (candidate.equals(madeIfMissing) && !Files.exists(candidate, LinkOption.NOFOLLOW_LINKS)
                && candidate.getParent() != null && unsafeReason(candidate.getParent(), uid) == null) {
            try {
                Files.createDirectory(candidate, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            } catch (FileAlreadyExistsException e) {
                // made meanwhile: checked below like any other
            }
        }
    }

    /**
     * Whether another local user could change any part of {@code dir}'s path.
     *
     * @return null when nothing along the path can be changed by anyone but {@code uid} and root,
     *     or when the path cannot be walked (missing, not a directory: making a directory there
     *     fails on its own); else the first reason found
     */
    static String unsafeReason(Path dir, int uid) {
        Path path = dir.toAbsolutePath();
        Deque<String> todo = new ArrayDeque<>();
        pushFront(todo, path);
        Path current = path.getRoot();
        try {
            String why = directoryProblem(current, uid);
            if (why != null) {
                return why;
            }
            int links = 0;
            while (!todo.isEmpty()) {
                String name = todo.pollFirst();
                if (name.isEmpty() || name.equals(".")) {
                    continue;
                }
                if (name.equals("..")) {
                    current = current.getParent() == null ? current : current.getParent();
                    continue;
                }
                Path next = current.resolve(name);
                Map<String, Object> a = Files.readAttributes(next, "unix:mode,uid", LinkOption.NOFOLLOW_LINKS);
                int mode = (Integer) a.get("mode");
                int owner = (Integer) a.get("uid");
                if ((mode & S_IFMT) == S_IFLNK) {
                    if (owner != uid && owner != 0) {
                        return printable(next.toString()) + " is a link owned by " + user(owner) + ", not by this user or root";
                    }
                    if (++links > MAX_LINKS) {
                        return null; // ELOOP: the mkdir fails and says so
                    }
                    Path target = Files.readSymbolicLink(next);
                    if (target.isAbsolute()) {
                        current = target.getRoot();
                    }
                    pushFront(todo, target);
                    continue;
                }
                if ((mode & S_IFMT) != S_IFDIR) {
                    return null; // not a directory: the mkdir fails and says so
                }
                why = directoryProblem(next, mode, owner, uid);
                if (why != null) {
                    return why;
                }
                current = next;
            }
            return null;
        } catch (IOException e) {
            // Missing, not a directory, not searchable (ENOENT, ENOTDIR, EACCES): making the private
            // directory there fails the same way, and says so.
            return null;
        } catch (RuntimeException e) {
            // A SecurityManager's refusal, no unix attribute view: nothing this check can vouch for.
            return "the owner and mode along " + printable(path.toString()) + " cannot be read (" + printable(e.toString()) + ")";
        }
    }

    private static String directoryProblem(Path dir, int uid) throws IOException {
        Map<String, Object> a = Files.readAttributes(dir, "unix:mode,uid", LinkOption.NOFOLLOW_LINKS);
        return directoryProblem(dir, (Integer) a.get("mode"), (Integer) a.get("uid"), uid);
    }

    private static String directoryProblem(Path dir, int mode, int owner, int uid) {
        if (owner != uid && owner != 0) {
            return printable(dir.toString()) + " is owned by " + user(owner) + ", not by this user or root";
        }
        if ((mode & S_ISVTX) == 0 && (mode & 0022) != 0) {
            return printable(dir.toString()) + " is writable by " + ((mode & 0002) != 0 ? "all users" : "its group")
                    + " without the sticky bit (mode " + String.format(Locale.ROOT, "%04o", mode & 07777) + ")";
        }
        return null;
    }

    private static void pushFront(Deque<String> todo, Path path) {
        for (int i = path.getNameCount() - 1; i >= 0; i--) {
            todo.addFirst(path.getName(i).toString());
        }
    }

    private static String user(int uid) {
        return "uid " + uid;
    }

    /** The user this JVM runs as (effective uid, from /proc/self/status), or -1 when it cannot be read. */
    static int effectiveUid() {
        try {
            // "Uid:\treal\teffective\tsaved\tfilesystem". A FileInputStream, no regex: Files' channel
            // classes and a Pattern cost milliseconds of start-up here.
            byte[] status;
            try (InputStream in = new FileInputStream("/proc/self/status")) {
                status = in.readAllBytes();
            }
            String text = new String(status, StandardCharsets.ISO_8859_1);
            int at = text.indexOf("\nUid:");
            if (at >= 0) {
                int i = at + 5;
                for (int field = 0; field < 2; field++) {
                    while (i < text.length() && (text.charAt(i) == '\t' || text.charAt(i) == ' ')) {
                        i++;
                    }
                    int start = i;
                    while (i < text.length() && Character.isDigit(text.charAt(i))) {
                        i++;
                    }
                    if (field == 1 && i > start) {
                        return Integer.parseInt(text.substring(start, i));
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            // below
        }
        return -1; // only root's directories count as safe then
    }

    /** A path (or any text) as it can be shown on one line: control characters escaped. */
    static String printable(String s) {
        StringBuilder sb = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean control = c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0) || c == '\u2028' || c == '\u2029';
            if (control && sb == null) {
                sb = new StringBuilder(s.substring(0, i));
            }
            if (sb != null) {
                if (control) {
                    sb.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                } else {
                    sb.append(c);
                }
            }
        }
        return sb == null ? s : sb.toString();
    }
}
