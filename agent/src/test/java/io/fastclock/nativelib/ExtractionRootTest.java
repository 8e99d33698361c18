package io.fastclock.nativelib;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where native code is copied: java.io.tmpdir only when no other local user can change any part of
 * its path; else one line and a safe alternative; else a refusal. Each refusal is built here for
 * real (directories and links owned by another user need root, which the build has; elsewhere
 * those cases are skipped).
 */
class ExtractionRootTest {
    @TempDir
    Path temp;

    private int me;
    private int other;
    private Path alternative;

    @BeforeEach
    void setUp() throws IOException {
        me = ExtractionRoot.effectiveUid();
        other = me == 65534 ? 65533 : 65534;
        alternative = dir("alternative", "rwx------");
    }

    private Path dir(String name, String permissions) throws IOException {
        Path d = Files.createDirectories(temp.resolve(name));
        Files.setPosixFilePermissions(d, PosixFilePermissions.fromString(permissions));
        return d;
    }

    /** A mode with the sticky bit, which PosixFilePermissions cannot express. */
    private static void chmod(Path p, String octal) throws Exception {
        run("chmod", octal, p.toString());
    }

    /** Owned by another (non-root) user: needs root; skipped elsewhere. */
    private void giveAway(Path p) throws IOException {
        try {
            Files.setAttribute(p, "unix:uid", other, LinkOption.NOFOLLOW_LINKS);
        } catch (IOException e) {
            Assumptions.assumeTrue(false, "cannot change an owner here (needs root): " + e);
        }
        assertEquals(other, Files.getAttribute(p, "unix:uid", LinkOption.NOFOLLOW_LINKS));
    }

    private static void run(String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertEquals(0, p.waitFor(), String.join(" ", command) + ": " + out);
    }

    private ExtractionRoot root(Path requested, Path... alternatives) {
        return new ExtractionRoot(requested, Arrays.asList(alternatives), null, me);
    }

    private static List<Path> list(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.collect(Collectors.toList());
        }
    }

    /** The requested root is refused: the private directory goes to the alternative, and the notice says why. */
    private String assertRefusedFor(Path requested, String reason) throws IOException {
        List<Path> before = list(requested);
        ExtractionRoot root = root(requested, alternative);
        Path made = root.newPrivateDirectory();
        assertEquals(alternative, made.getParent(), "made in " + made);
        assertEquals(before, list(requested), "something was made in the refused directory");
        String notice = root.notice();
        assertNotNull(notice, "no notice");
        assertTrue(notice.startsWith("java.io.tmpdir " + requested + " is not safe for fastclock's native code: "), notice);
        assertTrue(notice.contains(reason), "the notice should say '" + reason + "': " + notice);
        assertTrue(notice.endsWith("; extracted under " + alternative + " instead"), notice);
        // Chosen once: the next directory (JNA's) goes to the same place, with no second notice.
        assertEquals(alternative, root.newPrivateDirectory().getParent());
        return notice;
    }

    @Test
    void theUserThisJvmRunsAsOwnsWhatItCreates() throws IOException {
        Path file = Files.createFile(temp.resolve("mine"));
        assertEquals(Files.getAttribute(file, "unix:uid"), me);
    }

    @Test
    void aSafeTempDirectoryIsUsedAsItIs() throws IOException {
        Path tmp = dir("tmp", "rwxr-xr-x");
        ExtractionRoot root = root(tmp, alternative);
        Path made = root.newPrivateDirectory();
        assertEquals(tmp, made.getParent());
        assertTrue(made.getFileName().toString().startsWith("fastclock-"), made.toString());
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(made, LinkOption.NOFOLLOW_LINKS)));
        assertNull(root.notice());
        assertEquals(List.of(), list(alternative));
    }

    @Test
    void aStickyWorldWritableDirectoryLikeTmpIsSafe() throws Exception {
        Path tmp = dir("sticky", "rwxrwxrwx");
        chmod(tmp, "1777");
        ExtractionRoot root = root(tmp, alternative);
        assertEquals(tmp, root.newPrivateDirectory().getParent());
        assertNull(root.notice());
    }

    @Test
    void aWorldWritableDirectoryWithoutTheStickyBitIsRefused() throws IOException {
        Path tmp = dir("open", "rwxrwxrwx");
        assertRefusedFor(tmp, tmp + " is writable by all users without the sticky bit (mode 0777)");
    }

    @Test
    void aGroupWritableDirectoryWithoutTheStickyBitIsRefused() throws IOException {
        Path tmp = dir("group", "rwxrwxr-x");
        assertRefusedFor(tmp, tmp + " is writable by its group without the sticky bit (mode 0775)");
    }

    @Test
    void aDirectoryOwnedByAnotherUserIsRefused() throws IOException {
        Path tmp = dir("theirs", "rwxr-xr-x");
        giveAway(tmp);
        assertRefusedFor(tmp, tmp + " is owned by uid " + other + ", not by this user or root");
    }

    @Test
    void anEntryOfAStickyDirectoryOwnedByAnotherUserIsRefused() throws Exception {
        Path sticky = dir("shared", "rwxrwxrwx");
        chmod(sticky, "1777");
        Path tmp = Files.createDirectory(sticky.resolve("theirs"));
        giveAway(tmp);
        assertRefusedFor(tmp, tmp + " is owned by uid " + other);
    }

    @Test
    void anAncestorWritableByOthersWithoutTheStickyBitIsRefused() throws IOException {
        Path open = dir("open", "rwxrwxrwx");
        Path tmp = Files.createDirectories(open.resolve("a/b"));
        assertRefusedFor(tmp, open + " is writable by all users without the sticky bit");
    }

    @Test
    void anAncestorOwnedByAnotherUserIsRefused() throws IOException {
        Path theirs = dir("theirs", "rwxr-xr-x");
        Path tmp = Files.createDirectories(theirs.resolve("mine"));
        giveAway(theirs);
        assertRefusedFor(tmp, theirs + " is owned by uid " + other);
    }

    @Test
    void aLinkOwnedByAnotherUserIsRefusedEvenToASafeDirectory() throws IOException {
        Path target = dir("target", "rwxr-xr-x");
        Path link = Files.createSymbolicLink(temp.resolve("link"), target);
        giveAway(link);
        assertRefusedFor(link, link + " is a link owned by uid " + other + ", not by this user or root");
    }

    @Test
    void aLinkAlongThePathIsCheckedToo() throws IOException {
        Path target = dir("target", "rwxr-xr-x");
        Path link = Files.createSymbolicLink(temp.resolve("link"), target);
        Files.createDirectory(target.resolve("tmp"));
        giveAway(link);
        assertRefusedFor(link.resolve("tmp"), link + " is a link owned by uid " + other);
    }

    @Test
    void aLinkOfThisUserIntoAnUnsafeDirectoryIsRefusedForWhereItLeads() throws IOException {
        Path open = dir("open", "rwxrwxrwx");
        Path link = Files.createSymbolicLink(temp.resolve("link"), open);
        assertRefusedFor(link, open + " is writable by all users");
    }

    @Test
    void aLinkOfThisUserIntoAnotherUsersDirectoryIsRefused() throws IOException {
        Path theirs = dir("theirs", "rwx------");
        Path inside = Files.createDirectory(theirs.resolve("tmp"));
        giveAway(theirs);
        Path link = Files.createSymbolicLink(temp.resolve("link"), inside);
        assertRefusedFor(link, theirs + " is owned by uid " + other);
    }

    @Test
    void aRelativeLinkIsFollowedFromWhereItIs() throws IOException {
        Path open = dir("open", "rwxrwxrwx");
        Path safe = dir("safe", "rwxr-xr-x");
        Path inner = Files.createDirectory(safe.resolve("inner"));
        // safe/inner/up -> .. -> safe (fine); safe/inner/out -> ../../open (refused)
        Path up = Files.createSymbolicLink(inner.resolve("up"), Paths.get(".."));
        ExtractionRoot fine = root(up, alternative);
        assertEquals(up, fine.newPrivateDirectory().getParent());
        assertNull(fine.notice());
        Path out = Files.createSymbolicLink(inner.resolve("out"), Paths.get("../../open"));
        assertRefusedFor(out, open + " is writable by all users");
    }

    @Test
    void aLinkLoopIsNotFollowedForever() throws IOException {
        Path a = temp.resolve("a");
        Path b = temp.resolve("b");
        Files.createSymbolicLink(a, b);
        Files.createSymbolicLink(b, a);
        ExtractionRoot root = root(a, alternative);
        IOException e = assertThrows(IOException.class, root::newPrivateDirectory);
        assertTrue(e.getMessage().startsWith("cannot create a private directory in " + a), e.getMessage());
    }

    @Test
    void aMissingTempDirectoryFailsAsBeforeAndUsesNoAlternative() throws IOException {
        Path missing = temp.resolve("does/not/exist");
        ExtractionRoot root = root(missing, alternative);
        IOException e = assertThrows(IOException.class, root::newPrivateDirectory);
        assertTrue(e.getMessage().startsWith("cannot create a private directory in " + missing), e.getMessage());
        assertNull(root.notice());
        assertEquals(List.of(), list(alternative));
    }

    @Test
    void unsafeAlternativesArePassedOverAndWithNoneSafeNothingIsMade() throws IOException {
        Path tmp = dir("open", "rwxrwxrwx");
        Path alsoOpen = dir("also-open", "rwxrwxrwx");
        Path group = dir("group", "rwxrwx---");
        ExtractionRoot root = root(tmp, alsoOpen, group);
        IOException e = assertThrows(IOException.class, root::newPrivateDirectory);
        String m = e.getMessage();
        assertTrue(m.startsWith("java.io.tmpdir " + tmp + " is not safe for fastclock's native code: " + tmp
                + " is writable by all users"), m);
        assertTrue(m.contains(alsoOpen + " is writable by all users") && m.contains(group + " is writable by its group"), m);
        assertTrue(m.endsWith(ExtractionRoot.REMEDY), m);
        assertNull(root.notice());
        assertEquals(List.of(), list(tmp));
        assertEquals(List.of(), list(alsoOpen));
        assertEquals(List.of(), list(group));
        // Refused once, refused again (JNA after libfastclock), without looking twice.
        assertEquals(m, assertThrows(IOException.class, root::newPrivateDirectory).getMessage());

        ExtractionRoot second = root(tmp, alsoOpen, alternative);
        assertEquals(alternative, second.newPrivateDirectory().getParent(), "the first safe alternative is used");
    }

    @Test
    void theCacheDirectoryIsMadeOwnerOnlyWhenMissing() throws IOException {
        Path tmp = dir("open", "rwxrwxrwx");
        Path home = dir("home", "rwx------");
        Path cache = home.resolve(".cache");
        ExtractionRoot root = new ExtractionRoot(tmp, List.of(cache), cache, me);
        assertEquals(cache, root.newPrivateDirectory().getParent());
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(cache, LinkOption.NOFOLLOW_LINKS)));
        assertTrue(root.notice().endsWith("extracted under " + cache + " instead"), root.notice());
    }

    @Test
    void controlCharactersInPathsAreEscapedSoTheLineStaysOneLine() throws IOException {
        Path tmp = dir("bad\nname\u001b[31m", "rwxrwxrwx");
        ExtractionRoot root = root(tmp, alternative);
        root.newPrivateDirectory();
        String notice = root.notice();
        assertFalse(notice.contains("\n") || notice.contains("\u001b"), notice);
        assertTrue(notice.contains("bad\\u000aname\\u001b[31m"), notice);
    }

    /** The JNA copy goes through the same root: same checks, same place, removed on close. */
    @Test
    void jnasCopyFollowsTheSameRoot() throws IOException {
        Path tmp = dir("open", "rwxrwxrwx");
        ExtractionRoot root = root(tmp, alternative);
        Path dir;
        try (NativeLibraryExtractor.Copies copies = JnaLoader.copyJna(root)) {
            dir = copies.dir;
            assertEquals(alternative, dir.getParent());
            assertEquals("r--------", PosixFilePermissions.toString(
                    Files.getPosixFilePermissions(dir.resolve(JnaLoader.JAR_FILE), LinkOption.NOFOLLOW_LINKS)));
            assertTrue(Files.isRegularFile(dir.resolve(System.mapLibraryName("jnidispatch")), LinkOption.NOFOLLOW_LINKS));
        }
        assertNotNull(root.notice());
        assertFalse(Files.exists(dir, LinkOption.NOFOLLOW_LINKS), "the copies were not removed");
        assertEquals(List.of(), list(tmp));
    }

    @Test
    void libfastclocksCopyFollowsTheSameRoot() throws IOException {
        Path tmp = dir("open", "rwxrwxrwx");
        ExtractionRoot root = root(tmp, alternative);
        Path lib = NativeLibraryExtractor.extract(root);
        try {
            assertEquals(alternative, lib.getParent().getParent());
            assertEquals("r-x------", PosixFilePermissions.toString(Files.getPosixFilePermissions(lib, LinkOption.NOFOLLOW_LINKS)));
        } finally {
            NativeLibraryExtractor.cleanUp(lib);
        }
        assertEquals(List.of(), list(alternative));
        assertEquals(List.of(), list(tmp));
    }
}
