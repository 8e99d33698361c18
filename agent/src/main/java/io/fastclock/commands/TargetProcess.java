package io.fastclock.commands;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

/**
 * What /proc and the JVM's performance-data file say about a process before anything is sent to it:
 * whether it exists, whose it is, whether it is a JVM and whether it accepts attaching. Checked
 * first because a JVM that does not accept attaching still answers the attach protocol's signal
 * (SIGQUIT) with a thread dump on its stdout.
 */
final class TargetProcess {
    static final String DISABLE_ATTACH = "-XX:+DisableAttachMechanism";

    final long pid;
    private final Path proc;

    private TargetProcess(long pid, Path procRoot) {
        this.pid = pid;
        this.proc = procRoot.resolve(Long.toString(pid));
    }

    static TargetProcess of(long pid) {
        return new TargetProcess(pid, Paths.get("/proc"));
    }

    /** Why fastclock cannot attach to this process, or null when it may try. */
    String problem() {
        if (pid == ProcessHandle.current().pid()) {
            return pid + " is this command's own JVM";
        }
        if (!Files.isDirectory(proc)) {
            return "no such process: " + pid;
        }
        int uid = uid(proc);
        int myUid = uid(Paths.get("/proc/self"));
        if (uid >= 0 && myUid >= 0 && uid != myUid) {
            String user = userName(proc);
            return "process " + pid + " belongs to user " + user + " (uid " + uid + "); HotSpot accepts an attach only"
                    + " from the user the JVM runs as: run the command as that user, e.g. sudo -u " + user
                    + " java -jar " + Commands.jarPathForHelp() + " ...";
        }
        if (!isJvm()) {
            return "process " + pid + " (" + commandName() + ") is not a Java virtual machine";
        }
        if (attachDisabled()) {
            return "the JVM " + pid + " does not accept attaching: it was started with " + DISABLE_ATTACH
                    + "; start it with -javaagent:fastclock.jar instead";
        }
        return null;
    }

    /** A HotSpot JVM maps libjvm.so. */
    boolean isJvm() {
        try {
            for (String line : Files.readAllLines(proc.resolve("maps"), StandardCharsets.ISO_8859_1)) {
                if (line.endsWith("/libjvm.so")) {
                    return true;
                }
            }
            return false;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * -XX:+DisableAttachMechanism on the command line or in JAVA_TOOL_OPTIONS/JDK_JAVA_OPTIONS, or
     * a JVM whose performance data says it does not support attaching.
     */
    boolean attachDisabled() {
        for (String arg : cmdline()) {
            if (arg.equals(DISABLE_ATTACH)) {
                return true;
            }
        }
        for (String var : nulSeparated(proc.resolve("environ"))) {
            if ((var.startsWith("JAVA_TOOL_OPTIONS=") || var.startsWith("JDK_JAVA_OPTIONS=")) && var.contains(DISABLE_ATTACH)) {
                return true;
            }
        }
        return Boolean.FALSE.equals(PerfData.attachSupported(pid, userName(proc)));
    }

    List<String> cmdline() {
        return nulSeparated(proc.resolve("cmdline"));
    }

    String commandName() {
        try {
            return new String(Files.readAllBytes(proc.resolve("comm")), StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            return "?";
        }
    }

    String owner() {
        return userName(proc);
    }

    private static List<String> nulSeparated(Path file) {
        List<String> parts = new ArrayList<>();
        try {
            String all = new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
            for (String part : all.split("\0")) {
                if (!part.isEmpty()) {
                    parts.add(part);
                }
            }
        } catch (IOException e) {
            // unreadable (another user's) or gone: nothing to say
        }
        return parts;
    }

    static int uid(Path path) {
        try {
            return (Integer) Files.getAttribute(path, "unix:uid");
        } catch (NoSuchFileException e) {
            return -1;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    static String userName(Path path) {
        try {
            return Files.getOwner(path).getName();
        } catch (IOException | RuntimeException e) {
            return "?";
        }
    }
}
