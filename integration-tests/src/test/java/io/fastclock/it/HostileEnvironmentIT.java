package io.fastclock.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fastclock.it.apps.HelloApp;
import io.fastclock.it.apps.MapsApp;
import io.fastclock.it.apps.OtherAgent;
import io.fastclock.it.apps.OtherAgentApp;
import io.fastclock.it.apps.SecurityManagerApp;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A hostile host: an unusable temp directory, files planted where the agent extracts its library,
 * broken /proc and /sys, a SecurityManager, another agent transforming the same classes. In every
 * case the application runs (exit 0, its output intact), the agent's line says what happened,
 * nothing is written outside the agent's private directory, and nothing planted is loaded.
 *
 * <p>Proves, in docs/CONTRACT.md: host.failure-runs, host.private-library, activation.tsc-checks,
 * reach.loaded-before, nanos.origin, nanos.monotonic.
 */
class HostileEnvironmentIT {
    static List<Jdk> jdks() {
        return Jdk.all();
    }

    @TempDir
    Path temp;

    private static void assertAppRan(ForkedJvm.Result r) {
        assertEquals(0, r.exitCode, r.toString());
        assertEquals("ok", r.value("hello"), r.toString());
        assertEquals("true", r.value("millisPlausible"), r.toString());
    }

    /** Every entry under dir (not following links): type, size, mtime, link target, content hash. */
    private static Map<String, String> snapshot(Path dir) throws IOException {
        Map<String, String> state = new TreeMap<>();
        if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            return state;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.collect(Collectors.toList())) {
                String key = dir.relativize(p).toString();
                if (Files.isSymbolicLink(p)) {
                    state.put(key, "link->" + Files.readSymbolicLink(p) + " mtime="
                            + Files.getLastModifiedTime(p, LinkOption.NOFOLLOW_LINKS));
                } else if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
                    state.put(key, "file size=" + Files.size(p) + " mtime=" + Files.getLastModifiedTime(p)
                            + " hash=" + java.util.Arrays.hashCode(Files.readAllBytes(p))
                            + " perms=" + Files.getPosixFilePermissions(p));
                } else if (key.isEmpty()) {
                    // the root's mtime changes when the agent creates and removes its private directory
                    state.put(key, "dir");
                } else {
                    state.put(key, "dir mtime=" + Files.getLastModifiedTime(p, LinkOption.NOFOLLOW_LINKS));
                }
            }
        }
        return state;
    }

    // ---- the temp directory ---------------------------------------------------------------------

    static List<Arguments> unusableTempDirs() {
        List<Arguments> cases = new ArrayList<>();
        for (Jdk jdk : Jdk.all()) {
            for (String kind : new String[] {"regular-file", "missing", "proc"}) {
                cases.add(Arguments.of(jdk, kind));
            }
        }
        return cases;
    }

    @ParameterizedTest(name = "{0} java.io.tmpdir={1}")
    @MethodSource("unusableTempDirs")
    void anUnusableTempDirLeavesTheSystemClocksAndSaysWhy(Jdk jdk, String kind) throws Exception {
        Path tmpdir;
        if (kind.equals("regular-file")) {
            tmpdir = temp.resolve("not-a-dir");
            Files.write(tmpdir, "a file, not a directory".getBytes());
        } else if (kind.equals("missing")) {
            tmpdir = temp.resolve("does/not/exist");
        } else {
            tmpdir = Paths.get("/proc"); // nobody, root included, can create a directory there
        }
        Map<String, String> before = snapshot(temp);
        ForkedJvm.Result r = ForkedJvm.on(jdk).agentArgs("mode=on").jvmArg("-Djava.io.tmpdir=" + tmpdir)
                .main(HelloApp.class).run();
        assertAppRan(r);
        assertTrue(ForkedJvm.onSystemBackends(r.value("backends")), r.toString());
        assertEquals("false", r.value("active"), r.toString());
        assertEquals(1, r.agentLines().size(), "one line\n" + r);
        String line = r.agentLines().get(0);
        assertTrue(line.contains("native library") && line.contains(tmpdir.toString()),
                "the line must say the library could not be extracted, and where\n" + r);
        assertEquals(before, snapshot(temp), "the agent wrote something\n" + r);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void plantedFilesAndLinksInTheTempDirAreNeitherTouchedNorLoaded(Jdk jdk) throws Exception {
        Path tmp = Files.createDirectory(temp.resolve("tmp"));
        Path victim = Files.createDirectory(temp.resolve("victim"));
        Path secret = Files.write(victim.resolve("secret.so"), "victim's data".getBytes());
        // Names an attacker would guess: the library's own name, fastclock-* directories and files.
        Files.write(tmp.resolve("libfastclock.so"), "planted: not an ELF file".getBytes());
        Files.write(tmp.resolve("fastclock-0"), "planted file".getBytes());
        Files.createSymbolicLink(tmp.resolve("fastclock-dir"), victim);
        Files.createSymbolicLink(tmp.resolve("fastclock-lib"), secret);
        Files.createSymbolicLink(tmp.resolve("fastclock-dangling"), temp.resolve("nowhere"));
        Files.createDirectory(tmp.resolve("fastclock-planted-dir"));
        Files.createSymbolicLink(tmp.resolve("fastclock-planted-dir").resolve("libfastclock.so"), secret);
        Thread.sleep(20); // so that a rewrite within the same clock tick would still change an mtime
        Map<String, String> tmpBefore = snapshot(tmp);
        Map<String, String> victimBefore = snapshot(victim);

        ForkedJvm.Result r = ForkedJvm.on(jdk).agentArgs("mode=on").jvmArg("-Djava.io.tmpdir=" + tmp)
                .main(MapsApp.class).run();
        assertAppRan(r);
        HostMachine.assertActiveBackends(r.value("backends"), "the agent should still work\n" + r);
        String mapped = r.value("mappedLibrary");
        System.out.println("[HostileEnvironmentIT] " + jdk + " mapped library: " + mapped);
        assertTrue(mapped.matches(java.util.regex.Pattern.quote(tmp.toString())
                + "/fastclock-[0-9a-z]+/libfastclock\\.so( \\(deleted\\))?"), "loaded from elsewhere: " + mapped);
        assertFalse(mapped.contains("fastclock-0/") || mapped.contains("fastclock-dir/")
                || mapped.contains("fastclock-lib") || mapped.contains("planted") || mapped.contains("victim"), mapped);
        assertEquals(tmpBefore.toString(), snapshot(tmp).toString(),
                "the temp dir changed (planted entries touched or leftovers)\n" + r);
        assertEquals(victimBefore, snapshot(victim), "a link was followed\n" + r);
    }

    /**
     * The private directory, watched through the mkdir spy since the agent removes it once the
     * library is loaded: made with owner-only permissions in the mkdir call itself, owned by this
     * user, under a name that differs from run to run, and the one the loaded library came from.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void theLibraryIsExtractedIntoAFreshOwnerOnlyDirectory(Jdk jdk) throws Exception {
        Path tmp = Files.createDirectory(temp.resolve("tmp"));
        int me = (Integer) Files.getAttribute(temp, "unix:uid");
        Pattern made = Pattern.compile(Pattern.quote(tmp.toString())
                + "/(fastclock-[0-9a-z]+) requested=([0-7]+) mode=([0-7]+) uid=([0-9]+) dir=([01])");
        List<String> names = new ArrayList<>();
        for (int run = 0; run < 2; run++) {
            Path log = temp.resolve("mkdir-" + run + ".log");
            ForkedJvm.Result r = ForkedJvm.on(jdk).mkdirSpy(log).agentArgs("mode=on").jvmArg("-Djava.io.tmpdir=" + tmp)
                    .main(MapsApp.class).run();
            assertAppRan(r);
            HostMachine.assertActiveBackends(r.value("backends"), r);
            assertTrue(Files.exists(log), "the mkdir spy logged nothing (not preloaded?)\n" + r);
            List<String> inTmp = Files.readAllLines(log).stream().filter(l -> l.startsWith(tmp + "/"))
                    .collect(Collectors.toList());
            assertEquals(1, inTmp.size(), "one directory made in java.io.tmpdir: " + inTmp + "\n" + r);
            Matcher m = made.matcher(inTmp.get(0));
            assertTrue(m.matches(), inTmp.get(0));
            assertEquals("0700", m.group(2), "not made owner-only in the mkdir call: " + inTmp.get(0));
            assertEquals("0700", m.group(3), inTmp.get(0));
            assertEquals(me, Integer.parseInt(m.group(4)), "not owned by this user: " + inTmp.get(0));
            assertEquals("1", m.group(5), inTmp.get(0));
            assertTrue(r.value("mappedLibrary").startsWith(tmp + "/" + m.group(1) + "/libfastclock.so"),
                    "the library was not loaded from the directory made: " + r.value("mappedLibrary"));
            names.add(m.group(1));
        }
        assertNotEquals(names.get(0), names.get(1), "two runs used the same directory name");
        try (Stream<Path> left = Files.list(tmp)) {
            assertEquals(List.of(), left.collect(Collectors.toList()), "the private directory was not removed");
        }
    }

    static List<Arguments> unsafeTempDirs() {
        List<Arguments> cases = new ArrayList<>();
        for (Jdk jdk : Jdk.all()) {
            for (String where : new String[] {"XDG_RUNTIME_DIR", "/tmp", "JNA"}) {
                cases.add(Arguments.of(jdk, where));
            }
        }
        return cases;
    }

    /**
     * java.io.tmpdir writable by all users without the sticky bit: another local user could rename
     * the private directory away and put their own library in its place before it is loaded. The
     * agent says so in one line and extracts into a per-user place whose whole path is safe:
     * $XDG_RUNTIME_DIR where set (here a 0700 directory of the test's), else /tmp; JNA's copy (jna-coarse
     * without the JNI library) goes the same way, with the same single line. Nothing is made in
     * java.io.tmpdir, and the one private directory made is owner-only and removed.
     */
    @ParameterizedTest(name = "{0} instead: {1}")
    @MethodSource("unsafeTempDirs")
    void aTempDirOthersCanWriteIsRefusedWithOneLineAndTheAgentExtractsSomewhereSafe(Jdk jdk, String where)
            throws Exception {
        Path tmp = Files.createDirectory(temp.resolve("open"));
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxrwxrwx"));
        Path xdg = Files.createDirectory(temp.resolve("xdg"));
        Files.setPosixFilePermissions(xdg, PosixFilePermissions.fromString("rwx------"));
        Path safe = where.equals("/tmp") ? Paths.get("/tmp") : xdg;
        boolean jna = where.equals("JNA");
        Path log = temp.resolve("mkdir.log");
        Map<String, String> before = snapshot(tmp);

        ForkedJvm jvm = ForkedJvm.on(jdk).mkdirSpy(log).jvmArg("-Djava.io.tmpdir=" + tmp)
                .env("XDG_RUNTIME_DIR", where.equals("/tmp") ? "" : xdg.toString());
        if (jna) {
            jvm.agentArgs("mode=on,millis=jna-coarse,library=/nonexistent.so");
        } else {
            jvm.agentArgs("mode=on");
        }
        ForkedJvm.Result r = jvm.main(MapsApp.class).run();
        System.out.println("[HostileEnvironmentIT] " + jdk + " open java.io.tmpdir, " + where + ": "
                + String.join(" / ", r.agentLines()));
        assertAppRan(r);
        if (jna) {
            assertEquals("millis=jna-coarse,nanos=system", r.value("backends"), "the agent should still work\n" + r);
        } else {
            HostMachine.assertActiveBackends(r.value("backends"), "the agent should still work\n" + r);
        }
        List<String> lines = r.agentLines();
        // The refusal, once; the start line last (with jna-coarse named, the line on its cost between).
        assertEquals(jna ? 3 : 2, lines.size(), "the refusal and the start line\n" + r);
        assertEquals("fastclock: java.io.tmpdir " + tmp + " is not safe for fastclock's native code: " + tmp
                + " is writable by all users without the sticky bit (mode 0777); extracted under " + safe + " instead",
                lines.get(0), r.toString());
        assertEquals(1, lines.stream().filter(l -> l.contains("is not safe")).count(), r.toString());
        assertTrue(lines.get(lines.size() - 1).startsWith("fastclock: active: "), r.toString());
        for (String line : r.stderr.split("\n")) {
            assertTrue(line.isEmpty() || line.startsWith("fastclock: "), "stderr line not from the agent: " + line + "\n" + r);
        }

        List<String> made = Files.readAllLines(log).stream().filter(l -> l.contains("/fastclock-"))
                .collect(Collectors.toList());
        assertEquals(1, made.size(), "one private directory: " + made + "\n" + r);
        Matcher m = Pattern.compile(Pattern.quote(safe.toString())
                + "/(fastclock-[0-9a-z]+) requested=0700 mode=0700 uid=([0-9]+) dir=1").matcher(made.get(0));
        assertTrue(m.matches(), "not an owner-only directory in " + safe + ": " + made.get(0));
        assertEquals(Files.getAttribute(temp, "unix:uid"), Integer.parseInt(m.group(2)), made.get(0));
        String mapped = r.value("mappedLibrary");
        assertTrue(jna ? mapped.equals("none") : mapped.startsWith(safe + "/" + m.group(1) + "/libfastclock.so"),
                "the library was not loaded from the directory made: " + mapped);
        assertFalse(Files.exists(safe.resolve(m.group(1)), LinkOption.NOFOLLOW_LINKS), "the private directory was left");
        assertEquals(before, snapshot(tmp), "something was made in the refused java.io.tmpdir\n" + r);
    }

    // ---- /proc and /sys -------------------------------------------------------------------------

    static List<Arguments> brokenMachineFiles() {
        List<Arguments> cases = new ArrayList<>();
        // One JDK: reading /proc and /sys is the agent's own code, the same on every JDK.
        for (Jdk jdk : Jdk.one()) {
            for (String file : new String[] {"proc/cpuinfo", "sys/devices/system/clocksource/clocksource0/available_clocksource"}) {
                for (String damage : new String[] {"missing", "empty", "huge", "garbage"}) {
                    cases.add(Arguments.of(jdk, file, damage));
                }
            }
        }
        return cases;
    }

    /** A copy of the healthy tsc machine the agent's unit tests use, with one file damaged. */
    private Path machineWith(String file, String damage) throws IOException {
        Path root = Fixtures.copy("tsc", temp.resolve("machine"));
        Path damaged = root.resolve(file);
        switch (damage) {
            case "missing":
                Files.delete(damaged);
                break;
            case "empty":
                Files.write(damaged, new byte[0]);
                break;
            case "huge": {
                // 10 MB of plausible lines, with the real content only at the very end.
                byte[] original = Files.readAllBytes(damaged);
                byte[] line = (file.endsWith("cpuinfo") ? "bogomips\t: 4999.99\n" : "tsc hpet acpi_pm ").getBytes();
                try (OutputStream out = Files.newOutputStream(damaged)) {
                    for (int written = 0; written < 10_000_000; written += line.length) {
                        out.write(line);
                    }
                    out.write(original);
                }
                break;
            }
            case "garbage": {
                byte[] bytes = new byte[64 * 1024];
                new java.util.Random(42).nextBytes(bytes);
                Files.write(damaged, bytes);
                break;
            }
            default:
                throw new IllegalArgumentException(damage);
        }
        return root;
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("brokenMachineFiles")
    void aBrokenProcOrSysKeepsTheTscOffAndSaysWhy(Jdk jdk, String file, String damage) throws Exception {
        Path machine = machineWith(file, damage);
        String name = file.substring(file.lastIndexOf('/') + 1);
        // nanos=tsc named explicitly: a setting that cannot be honoured must say why (activation.tsc-checks).
        ForkedJvm.Result r = ForkedJvm.on(jdk).agentArgs("mode=on,nanos=tsc," + Fixtures.settings(machine))
                .main(HelloApp.class).run();
        System.out.println("[HostileEnvironmentIT] " + jdk + " " + name + " " + damage + ": "
                + String.join(" / ", r.agentLines()));
        assertAppRan(r);
        // nanoTime on the system clock (never coarse unless named), currentTimeMillis on the coarse clock.
        assertEquals("millis=coarse,nanos=system", r.value("backends"), "TSC used on an unreadable machine\n" + r);
        assertTrue(r.agentLines().stream().anyMatch(l -> l.contains("nanos=tsc") && l.contains("cannot be honoured")),
                "the agent must say that nanos=tsc is not honoured\n" + r);
        String because = name.equals("cpuinfo") ? "cpuinfo" : "available_clocksource";
        assertTrue(r.agentLines().stream().anyMatch(l -> l.contains("cannot be honoured") && l.contains(because)),
                "the line must name " + because + "\n" + r);

        // Plain mode=on with log=debug: the reason is printed too.
        ForkedJvm.Result d = ForkedJvm.on(jdk).agentArgs("mode=on,log=debug," + Fixtures.settings(machine))
                .main(HelloApp.class).run();
        assertAppRan(d);
        assertEquals("millis=coarse,nanos=system", d.value("backends"), d.toString());
        assertTrue(d.agentLines().stream().anyMatch(l -> l.contains(name)), "log=debug must name " + name + "\n" + d);
    }

    // ---- SecurityManager (JDK 17 only: JDK 24+ cannot enable one) --------------------------------

    private static Jdk jdk17() {
        Jdk jdk = Jdk.current();
        Assumptions.assumeTrue(jdk.feature < 24, "a SecurityManager cannot be enabled on JDK " + jdk.feature);
        return jdk;
    }

    @org.junit.jupiter.api.Test
    void aSecurityManagerFromTheStartThatGrantsTheAgentNothing() throws Exception {
        Jdk jdk = jdk17();
        Path policy = temp.resolve("app-only.policy");
        Files.write(policy, ("grant codeBase \"" + ForkedJvm.testClasses().toUri() + "-\" {\n"
                + "  permission java.security.AllPermission;\n};\n").getBytes(StandardCharsets.UTF_8));
        // programEndsFirst: a policy that grants the agent nothing lets it publish no verdict property
        // either, so the program must not wait for one.
        ForkedJvm.Result r = ForkedJvm.on(jdk).agentArgs("mode=on").programEndsFirst()
                .jvmArg("-Djava.security.manager", "-Djava.security.policy==" + policy).main(HelloApp.class).run();
        System.out.println("[HostileEnvironmentIT] SecurityManager from start: " + String.join(" / ", r.agentLines()));
        assertAppRan(r);
        assertEquals(1, r.agentLines().size(), r.toString());
        // A policy that grants the agent's jar nothing: the agent cannot even ask who called it, so it
        // stays off and says why; the application runs on the system clocks.
        String line = r.agentLines().get(0);
        assertTrue(ForkedJvm.onSystemBackends(r.value("backends")), r.toString());
        assertTrue(line.contains("system clocks") && line.contains("AccessControlException"),
                "the agent is off without saying why\n" + r);
    }

    @org.junit.jupiter.api.Test
    void aPermissiveSecurityManagerInstalledByTheAppChangesNothing() throws Exception {
        Jdk jdk = jdk17();
        ForkedJvm.Result r = ForkedJvm.on(jdk).agentArgs("mode=on,recheck=100").jvmArg("-Djava.security.manager=allow")
                .main(SecurityManagerApp.class, "1.5", "permissive").run();
        assertAppRan(r);
        assertEquals("true", r.value("securityManager"), r.toString());
        HostMachine.assertActiveBackends(r.value("backends"), r);
        assertEquals(0, r.longValue("backwards"), r.toString());
        assertTrue(r.agentLines().stream().noneMatch(l -> l.contains("disabled")), r.toString());
        assertTrue(r.longValue("nanos.worstDeviationNs") <= 100_000, r.toString());
    }

    @org.junit.jupiter.api.Test
    void aRestrictiveSecurityManagerInstalledByTheAppLeavesTheAppRunning() throws Exception {
        Jdk jdk = jdk17();
        ForkedJvm.Result r = ForkedJvm.on(jdk).agentArgs("mode=on,recheck=100").jvmArg("-Djava.security.manager=allow")
                .main(SecurityManagerApp.class, "1.5", "restrictive").run();
        System.out.println("[HostileEnvironmentIT] restrictive SecurityManager after start: "
                + String.join(" / ", r.agentLines()) + " | " + r.stdout.replace('\n', ' '));
        assertAppRan(r);
        assertEquals("true", r.value("securityManager"), r.toString());
        assertEquals(0, r.longValue("backwards"), "nanoTime went backwards\n" + r);
    }

    /**
     * The re-check cannot read sysfs under the SecurityManager (docs/ADVERSITY.md, "A SecurityManager"):
     * the agent must say so rather than blame the kernel's watchdog, and nanoTime must stay within
     * 100 us of System.nanoTime across the fallback (it once ran ~250 ms ahead).
     */
    @org.junit.jupiter.api.Test
    void aRestrictiveSecurityManagerIsReportedTruthfullyAndKeepsTheContract() throws Exception {
        // What falls back is the TSC clock (its re-check is what cannot read sysfs).
        HostMachine.assumeTscClock("a TSC clock's fallback under a SecurityManager");
        Jdk jdk = jdk17();
        ForkedJvm.Result r = ForkedJvm.on(jdk).agentArgs("mode=on,recheck=100").jvmArg("-Djava.security.manager=allow")
                .main(SecurityManagerApp.class, "1.5", "restrictive").run();
        assertAppRan(r);
        assertTrue(r.agentLines().stream().noneMatch(l -> l.contains("watchdog found the TSC unstable")),
                "the agent blames the kernel for its own permission failure\n" + r);
        assertTrue(r.agentLines().stream().anyMatch(l -> l.contains("TSC clock disabled")
                && l.contains("could not be re-read") && l.contains("AccessControlException")),
                "the fallback must name the real cause\n" + r);
        assertTrue(r.longValue("nanos.worstDeviationNs") <= 100_000, "nanoTime more than 100 us off\n" + r);
        assertEquals(0, r.longValue("backwards"), "nanoTime went backwards\n" + r);
    }

    // ---- another agent transforming the same classes --------------------------------------------

    static List<Arguments> agentOrders() {
        List<Arguments> cases = new ArrayList<>();
        for (Jdk jdk : Jdk.all()) {
            cases.add(Arguments.of(jdk, "fastclock-first"));
            cases.add(Arguments.of(jdk, "other-first"));
        }
        return cases;
    }

    /** other-agent.jar: Premain-Class OtherAgent and its classes, written with java.util.jar. */
    private Path otherAgentJar() throws IOException {
        Path jar = temp.resolve("other-agent.jar");
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(new Attributes.Name("Premain-Class"), OtherAgent.class.getName());
        Path classes = ForkedJvm.testClasses();
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), manifest);
                Stream<Path> files = Files.list(classes.resolve("io/fastclock/it/apps"))) {
            for (Path f : files.filter(p -> p.getFileName().toString().startsWith("OtherAgent")
                    && !p.getFileName().toString().startsWith("OtherAgentApp")).collect(Collectors.toList())) {
                out.putNextEntry(new JarEntry(classes.relativize(f).toString().replace(File.separatorChar, '/')));
                out.write(Files.readAllBytes(f));
                out.closeEntry();
            }
        }
        return jar;
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("agentOrders")
    void anotherTransformingAgentAndFastclockBothSeeTheClasses(Jdk jdk, String order) throws Exception {
        String fastclock = "-javaagent:" + ForkedJvm.agentJar() + "=mode=on,log=debug";
        String other = "-javaagent:" + otherAgentJar();
        ForkedJvm jvm = ForkedJvm.on(jdk).withoutAgent().agentGivenByTheTest().classPath(ConcurrentLoadIT.classPathWithAsm());
        if (order.equals("fastclock-first")) {
            jvm.jvmArg(fastclock, other);
        } else {
            jvm.jvmArg(other, fastclock);
        }
        ForkedJvm.Result r = jvm.main(OtherAgentApp.class).run();
        System.out.println("[HostileEnvironmentIT] " + jdk + " " + order + ": " + r.stdout.replace('\n', ' '));
        assertAppRan(r);
        assertTrue(r.stderr.contains("other-agent: installed"), r.toString());
        assertFalse(r.stderr.contains("other-agent: io/"), "the other agent failed on a class\n" + r);
        HostMachine.assertActiveBackends(r.value("backends"), r);
        assertTrue(r.agentLines().stream().anyMatch(l -> l.contains("rewrote " + OtherAgentApp.class.getName() + " (")),
                "fastclock did not rewrite the app's clock calls\n" + r);
        assertEquals("true", r.value("markedByOtherAgent"), "the other agent's change was lost\n" + r);
        assertTrue(r.longValue("otherAgentSeen") >= 2, r.toString());
        assertEquals(0, r.longValue("backwards"), r.toString());
        // fastclock's transformer is retransformation-capable (it rewrites classes loaded before it),
        // and the JVM runs those after every other transformer whatever the -javaagent order: the
        // other agent sees the original bytes, fastclock the other agent's output.
        assertEquals("System", r.value("otherAgentGotBytesNaming"), r.toString());
        assertTrue(r.agentLines().stream().noneMatch(l -> l.contains("failures=") && !l.contains("failures=0")),
                r.toString());
    }
}
