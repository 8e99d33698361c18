package io.fastclock.commands;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fastclock.attach.AttachApi;
import io.fastclock.attach.AttachTransport;
import io.fastclock.config.Settings;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class CommandsTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return Commands.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void pidsAreDigitsOnly() {
        assertEquals(1234, Commands.parsePid("1234"));
        assertEquals(-1, Commands.parsePid("12ab"));
        assertEquals(-1, Commands.parsePid("-5"));
        assertEquals(-1, Commands.parsePid("0"));
        assertEquals(-1, Commands.parsePid(""));
        assertEquals(-1, Commands.parsePid(null));
        assertEquals(-1, Commands.parsePid("99999999999"));
    }

    @Test
    void anUnknownCommandIsAUsageErrorAndAnUnknownOptionIsTheDoctors() {
        assertEquals(Commands.USAGE, run("atach", "1"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("unknown command 'atach'"), err.toString());
        err.reset();
        assertEquals(Commands.USAGE, run("--jsn"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("unknown argument '--jsn'"), err.toString());
    }

    @Test
    void anUnknownCommandListsEveryCommandTheDoctorIncluded() {
        assertEquals(Commands.USAGE, run("bogus"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("(commands: doctor, attach, status, list, detach;"), err.toString());
    }

    @Test
    void attachsTimeoutIsTakenInBothSpellingsAndABadOneIsNamed() throws Exit {
        assertEquals(5, AttachCommand.timeoutSeconds("5"));
        long pid = ProcessHandle.current().pid();
        for (String[] bad : new String[][] {{"--timeout", "0"}, {"--timeout", "abc"}, {"--timeout=0"}, {"--timeout=-3"}}) {
            err.reset();
            String[] args = new String[bad.length + 2];
            args[0] = "attach";
            args[1] = Long.toString(pid);
            System.arraycopy(bad, 0, args, 2, bad.length);
            assertEquals(Commands.USAGE, run(args), String.join(" ", args));
            assertTrue(err.toString(StandardCharsets.UTF_8).contains("--timeout takes a whole number of seconds, 1 or more, not '"),
                    String.join(" ", args) + ": " + err);
        }
        err.reset();
        assertEquals(Commands.USAGE, run("attach", Long.toString(pid), "mode=fast", "--timeout"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("--timeout needs a number of seconds"), err.toString());
        // Both spellings are taken: what fails next is the bad setting, checked before anything is loaded.
        for (String[] good : new String[][] {{"--timeout", "7"}, {"--timeout=7"}}) {
            err.reset();
            String[] args = new String[good.length + 3];
            args[0] = "attach";
            args[1] = Long.toString(pid);
            args[2] = "mode=fast";
            System.arraycopy(good, 0, args, 3, good.length);
            assertEquals(Commands.USAGE, run(args));
            assertTrue(err.toString(StandardCharsets.UTF_8).contains("accepted values are auto, on, off"), err.toString());
        }
    }

    @Test
    void listsTableKeepsEveryCellWholeAndItsColumnsInLine() {
        java.util.List<String[]> lines = new java.util.ArrayList<>();
        lines.add(new String[] {"PID", "JDK", "MAIN", "FASTCLOCK"});
        lines.add(new String[] {"12", "17.0.15+6-Debian-1deb12u1", "com.acme.App", "inactive: " + "a long reason ".repeat(8)});
        lines.add(new String[] {"123456", "-", "x", "attach disabled (-XX:+DisableAttachMechanism)"});
        String[] rows = ListCommand.table(lines).split("\n");
        assertEquals(3, rows.length);
        assertTrue(rows[1].contains("17.0.15+6-Debian-1deb12u1 "), rows[1]);
        int state = rows[0].indexOf("FASTCLOCK");
        assertEquals(state, rows[1].indexOf("inactive: "), String.join("\n", rows));
        assertEquals(state, rows[2].indexOf("attach disabled"), String.join("\n", rows));
        assertEquals(rows[0].indexOf("MAIN"), rows[1].indexOf("com.acme.App"), String.join("\n", rows));
    }

    @Test
    void everyCommandReadsItsArgumentsTheSameWay() throws Exit {
        java.util.Set<String> json = java.util.Collections.singleton("--json");
        java.util.Map<String, String> timeout = java.util.Collections.singletonMap("--timeout", "a number of seconds");
        CommandLine line = CommandLine.parse(new String[] {"1234", "--json"}, 1, json);
        assertTrue(line.has("--json"));
        assertEquals("1234", line.positional(0));
        assertNull(line.positional(1));
        assertEquals("-5", CommandLine.parse(new String[] {"-5"}, 1, json).positional(0), "a first positional may look like an option");
        line = CommandLine.parse(new String[] {"7", "mode=on", "--timeout=5"}, 2, json, timeout);
        assertEquals("mode=on", line.positional(1));
        assertEquals("5", line.value("--timeout"));
        assertEquals("9", CommandLine.parse(new String[] {"--timeout", "9", "7"}, 2, json, timeout).value("--timeout"));
        assertEquals("unexpected argument '2'", usageMessage(() -> CommandLine.parse(new String[] {"1", "2"}, 1, json)));
        assertEquals("unexpected argument '-x'", usageMessage(() -> CommandLine.parse(new String[] {"1", "-x"}, 2, json)));
        assertEquals("--timeout needs a number of seconds",
                usageMessage(() -> CommandLine.parse(new String[] {"1", "--timeout"}, 2, json, timeout)));
        assertTrue(assertThrowsExit(() -> CommandLine.parse(new String[] {"1", "-h"}, 1, json)).isHelp());
    }

    private interface Parse {
        void run() throws Exit;
    }

    private static Exit assertThrowsExit(Parse parse) {
        try {
            parse.run();
        } catch (Exit e) {
            return e;
        }
        throw new AssertionError("no Exit");
    }

    private static String usageMessage(Parse parse) {
        Exit e = assertThrowsExit(parse);
        assertEquals(Commands.USAGE, e.status);
        return e.getMessage();
    }

    @Test
    void versionPrintsOneLine() {
        assertEquals(Commands.OK, run("--version"));
        assertTrue(out.toString(StandardCharsets.UTF_8).matches("fastclock \\S+\n"), out.toString());
    }

    @Test
    void everyCommandHasHelp() {
        for (String command : new String[] {"attach", "status", "list", "detach"}) {
            out.reset();
            assertEquals(Commands.OK, run(command, "--help"));
            assertTrue(out.toString(StandardCharsets.UTF_8).startsWith("usage: java -jar "), command + ": " + out);
        }
    }

    @Test
    void aBadSettingNeverReachesTheTarget() {
        // The PID is this JVM's own: a bad setting is reported before the PID is even looked at.
        assertEquals(Commands.USAGE, run("attach", Long.toString(ProcessHandle.current().pid()), "mode=fast"));
        String e = err.toString(StandardCharsets.UTF_8);
        assertTrue(e.contains("mode=fast") && e.contains("accepted values are auto, on, off") && e.contains("nothing was loaded"), e);
    }

    @Test
    void theAttachCapabilityIsReadFromThePerfDataString() {
        assertEquals(Boolean.TRUE, PerfData.attachSupported(perfData("1000000000000000")));
        assertEquals(Boolean.FALSE, PerfData.attachSupported(perfData("0000000000000000")));
        assertNull(PerfData.attachSupported("no such entry".getBytes(StandardCharsets.US_ASCII)));
    }

    private static byte[] perfData(String capabilities) {
        byte[] name = "....sun.rt.jvmCapabilities\0\0\0".getBytes(StandardCharsets.US_ASCII);
        byte[] value = capabilities.getBytes(StandardCharsets.US_ASCII);
        byte[] all = new byte[name.length + value.length + 8];
        System.arraycopy(name, 0, all, 0, name.length);
        System.arraycopy(value, 0, all, name.length, value.length);
        return all;
    }

    @Test
    void statusTextSaysWhatTheAgentPropertiesSay() {
        Properties system = new Properties();
        system.setProperty("java.specification.version", "21");
        system.setProperty("sun.java.command", "com.acme.App arg");
        Properties p = new Properties();
        TargetStatus none = new TargetStatus(42, system, p);
        assertFalse(none.loaded());
        assertTrue(none.text().contains("fastclock is not loaded"), none.text());
        assertEquals(21, none.jdkFeature());
        p.setProperty("fastclock.started", "agentmain");
        p.setProperty("fastclock.active", "true");
        p.setProperty("fastclock.reason", "active: ...");
        p.setProperty("fastclock.classes", "12");
        p.setProperty("fastclock.callsites", "34");
        p.setProperty("fastclock.fallback", "the TSC rate moved");
        p.setProperty("fastclock.retransform.pending", "100");
        TargetStatus active = new TargetStatus(42, system, p);
        assertTrue(active.loaded() && active.decided() && active.active());
        assertEquals(100, active.pending());
        String text = active.text();
        assertTrue(text.contains("12 classes, 34 call sites") && text.contains("fallback:          the TSC rate moved")
                && text.contains("100 generated classes"), text);
        Map<String, Object> json = active.toMap();
        assertEquals("com.acme.App", json.get("main"));
        assertEquals(100L, json.get("pendingGeneratedClasses"));
        assertEquals(Boolean.TRUE, json.get("active"));
        assertEquals(12L, json.get("classes"));
        assertEquals(34L, json.get("callSites"));
        assertTrue(json.containsKey("jdkClasses") && json.get("jdkClasses") == null, json.toString());
        assertEquals("{backend=null, lagNs=null}", json.get("millis").toString());
    }

    @Test
    void statusJsonGivesEachPublishedValueItsJsonType() {
        Properties p = new Properties();
        p.setProperty("fastclock.started", "premain");
        p.setProperty("fastclock.active", "false");
        p.setProperty("fastclock.millis", "system");
        p.setProperty("fastclock.epoch", "system");
        p.setProperty("fastclock.millisLagMs", "2");
        p.setProperty("fastclock.tsc.worstErrorNanos", "-53");
        p.setProperty("fastclock.tsc.lastRateChangePpm", "0.533");
        p.setProperty("fastclock.classes", "not a number");
        Map<String, Object> json = new TargetStatus(42, new Properties(), p).toMap();
        assertEquals(Boolean.FALSE, json.get("active"));
        assertEquals("{backend=system, lagNs=2000000}", json.get("millis").toString());
        assertEquals("{epoch=jdk}", json.get("javaTime").toString());
        assertEquals("{worstErrorNs=-53, reanchors=null, lastRateChangePpm=0.533}", json.get("tscClock").toString());
        assertNull(json.get("classes"), "a value of another agent version that is no number: null, not a string");
        Map<String, Object> unread = TargetStatus.unread(7, "app.jar");
        assertNull(unread.get("loaded"));
        assertEquals("app.jar", unread.get("main"));
        assertEquals(json.keySet(), unread.keySet(), "a JVM that could not be read has the same fields");
    }

    @Test
    void statusNeverReadsTheStateFromSystemPropertiesAndKeepsEachValueOnItsLine() {
        Properties system = new Properties();
        system.setProperty("fastclock.started", "premain");
        system.setProperty("fastclock.active", "true");
        system.setProperty("fastclock.reason", "fake");
        TargetStatus fake = new TargetStatus(42, system, new Properties());
        assertFalse(fake.loaded() || fake.active() || fake.decided());
        Properties agent = new Properties();
        agent.setProperty("fastclock.started", "premain");
        agent.setProperty("fastclock.active", "false");
        agent.setProperty("fastclock.reason", "inactive: path /tmp/a\nb");
        agent.setProperty("fastclock.fallback", "x\ny\rz");
        String text = new TargetStatus(42, system, agent).text();
        assertTrue(text.contains("/tmp/a\\u000ab") && text.contains("x\\u000ay\\u000dz"), text);
        assertEquals(7, text.split("\n").length, text);
    }

    @Test
    void thePublishedStateIsNeverReadAsASetting() {
        Map<String, String> props = new HashMap<>();
        for (String name : io.fastclock.config.PublishedState.ALL) {
            props.put(name, "12");
        }
        props.put("fastclock.millis", "tsc");
        props.put("fastclock.nanos", "tsc");
        Settings s = Settings.parse(null, props);
        assertEquals(Settings.Millis.TSC, s.millis());
    }

    /** A JVM that does nothing for a minute: a target the commands accept, never really attached to. */
    public static final class IdleJvm {
        public static void main(String[] args) throws InterruptedException {
            Thread.sleep(60_000);
        }
    }

    /** Records the transport each command asks for, and attaches to nothing. */
    private static final class RecordingAccess implements JvmAccess {
        final List<AttachTransport> asked = new ArrayList<>();

        @Override
        public AttachApi api(AttachTransport transport) throws IOException {
            asked.add(transport);
            throw new IOException("no attach in a unit test");
        }

        @Override
        public Path jar(String command) {
            return Paths.get("fastclock.jar");
        }
    }

    private interface CommandOf {
        Command of(JvmAccess access);
    }

    /** Each command that attaches, with the arguments that name its target (list has none). */
    private static Map<String, CommandOf> attachingCommands() {
        Map<String, CommandOf> commands = new LinkedHashMap<>();
        commands.put("attach", AttachCommand::new);
        commands.put("status", StatusCommand::new);
        commands.put("list", ListCommand::new);
        commands.put("detach", DetachCommand::new);
        return commands;
    }

    private int run(Command command, List<String> args) {
        return Commands.run(command, args.toArray(new String[0]), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private static List<String> args(String command, String pid, String... more) {
        List<String> args = new ArrayList<>();
        if (!command.equals("list")) {
            args.add(pid);
        }
        args.addAll(Arrays.asList(more));
        return args;
    }

    @Test
    void theCommandsThatAttachUseTheTransportNamed() throws Exception {
        Process idle = new ProcessBuilder(Paths.get(System.getProperty("java.home"), "bin", "java").toString(), "-Xshare:auto",
                "-cp", System.getProperty("java.class.path"), IdleJvm.class.getName()).redirectErrorStream(true).start();
        try {
            String pid = Long.toString(idle.pid());
            long deadline = System.nanoTime() + 20_000_000_000L;
            while (!TargetProcess.of(idle.pid()).isJvm() && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertTrue(TargetProcess.of(idle.pid()).isJvm(), "the idle JVM did not start");
            for (Map.Entry<String, CommandOf> command : attachingCommands().entrySet()) {
                String name = command.getKey();
                for (String[] named : new String[][] {{"--transport", "nio"}, {"--transport=jna"}, {"--transport", "jdk_attach"}, {}}) {
                    RecordingAccess access = new RecordingAccess();
                    out.reset();
                    err.reset();
                    List<String> args = args(name, pid, named);
                    // list says what it could not read, row by row, and ends OK; the others fail.
                    boolean list = name.equals("list");
                    assertEquals(list ? Commands.OK : Commands.FAILED, run(command.getValue().of(access), args),
                            name + " " + args + ": " + err);
                    AttachTransport expected = named.length == 0 ? null
                            : AttachTransport.named(named[named.length - 1].replace("--transport=", ""));
                    assertEquals(Collections.singletonList(expected), access.asked, name + " " + args);
                    assertTrue((list ? out : err).toString(StandardCharsets.UTF_8).contains("no attach in a unit test"),
                            name + ": " + out + err);
                }
            }
        } finally {
            idle.destroyForcibly();
        }
    }

    @Test
    void aWrongTransportIsRefusedWithWhatIsTaken() {
        for (Map.Entry<String, CommandOf> command : attachingCommands().entrySet()) {
            String name = command.getKey();
            for (String[] bad : new String[][] {{"--transport", "udp"}, {"--transport=JNA"}, {"--transport="}, {"--transport", "jdk.attach"}}) {
                RecordingAccess access = new RecordingAccess();
                err.reset();
                List<String> args = args(name, "1", bad);
                assertEquals(Commands.USAGE, run(command.getValue().of(access), args), name + " " + args + ": " + err);
                String value = bad.length == 2 ? bad[1] : bad[0].substring("--transport=".length());
                assertTrue(err.toString(StandardCharsets.UTF_8).contains("fastclock " + name + ": --transport takes jdk_attach, jna or nio,"
                        + " not '" + value + "'"), name + " " + args + ": " + err);
                assertEquals(Collections.emptyList(), access.asked, name + " " + args);
            }
            err.reset();
            assertEquals(Commands.USAGE, run(command.getValue().of(new RecordingAccess()), args(name, "1", "--transport")));
            assertTrue(err.toString(StandardCharsets.UTF_8).contains("--transport needs jdk_attach, jna or nio"), name + ": " + err);
        }
    }

    @Test
    void theUsageAndEachAttachingCommandsHelpShowTheTransport() {
        assertEquals(Commands.OK, run("--help"));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains(
                "attach, status, list and detach take [--transport jdk_attach|jna|nio]"), out.toString());
        for (String name : attachingCommands().keySet()) {
            out.reset();
            assertEquals(Commands.OK, run(name, "--help"));
            String help = out.toString(StandardCharsets.UTF_8);
            assertTrue(help.contains("[--transport jdk_attach|jna|nio]") && help.contains("--transport picks how"), name + ": " + help);
        }
    }
}
