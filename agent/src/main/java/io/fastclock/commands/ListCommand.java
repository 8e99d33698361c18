package io.fastclock.commands;

import io.fastclock.attach.AttachApi;
import io.fastclock.attach.AttachTransport;

import io.fastclock.doctor.Json;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code list [--json]}: the JVMs on this machine that this user may attach to, with fastclock's
 * state in each (read from each JVM's system properties through the attach mechanism).
 */
final class ListCommand implements Command {
    /** The JSON schema of {@code list --json} (docs/JSON.md): each JVM with status's fields, and its state in words. */
    static final String SCHEMA = "fastclock-list/1";
    private final JvmAccess access;

    ListCommand(JvmAccess access) {
        this.access = access;
    }

    @Override
    public String name() {
        return "list";
    }

    @Override
    public String synopsis() {
        return "list [--json]";
    }

    @Override
    public String summary() {
        return "the JVMs you may attach to, with fastclock's state in each";
    }

    @Override
    public String help() {
        return "usage: java -jar " + Commands.jarPathForHelp() + " list [--json] " + Commands.TRANSPORT_SYNOPSIS + "\n"
                + "  The JVMs on this machine that you may attach to (those running as your user), with fastclock's\n"
                + "  state in each: not loaded, active (backends, classes rewritten) or inactive (why). Each JVM is\n"
                + "  asked for its system properties through the attach mechanism; nothing is loaded into it.\n"
                + "  JVMs of other users are counted, not shown; JVMs started with -XX:+DisableAttachMechanism are\n"
                + "  shown without state.\n"
                + Commands.TRANSPORT_HELP;
    }

    @Override
    public int run(String[] args, PrintStream out, PrintStream err) throws Exit {
        CommandLine line = CommandLine.parse(args, 0, Collections.singleton(Commands.JSON), Commands.attachOptions());
        boolean json = line.has(Commands.JSON);
        AttachTransport transport = Commands.transport(line);
        int myUid = TargetProcess.uid(Paths.get("/proc/self"));
        long self = ProcessHandle.current().pid();
        List<Map<String, Object>> rows = new ArrayList<>();
        List<String[]> lines = new ArrayList<>();
        int otherUsers = 0;
        AttachApi api = null;
        String apiProblem = null;
        List<Long> pids = new ArrayList<>();
        ProcessHandle.allProcesses().forEach(p -> pids.add(p.pid()));
        for (long pid : pids) {
            if (pid == self) {
                continue;
            }
            TargetProcess target = TargetProcess.of(pid);
            int uid = TargetProcess.uid(Paths.get("/proc", Long.toString(pid)));
            if (uid != myUid) {
                if (uid >= 0 && PerfData.file(pid, TargetProcess.userName(Paths.get("/proc", Long.toString(pid)))) != null) {
                    otherUsers++;
                }
                continue;
            }
            if (!target.isJvm()) {
                continue;
            }
            Map<String, Object> row = TargetStatus.unread(pid, target.commandName());
            String state;
            if (target.attachDisabled()) {
                state = "attach disabled (" + TargetProcess.DISABLE_ATTACH + ")";
                row.put("state", state);
                lines.add(new String[] {Long.toString(pid), "-", target.commandName(), state});
                rows.add(row);
                continue;
            }
            try {
                if (api == null && apiProblem == null) {
                    api = access.api(transport);
                }
                if (api == null) {
                    throw new IOException(apiProblem);
                }
                TargetStatus status = TargetStatus.read(api, pid);
                row.putAll(status.toMap());
                state = summary(status);
                row.put("state", state);
                lines.add(new String[] {Long.toString(pid), status.jdk().substring("JDK ".length()), status.mainCommand(), state});
            } catch (IOException | RuntimeException e) {
                if (api == null) {
                    apiProblem = Commands.describe(e);
                }
                state = "cannot read it: " + Commands.describe(e);
                row.put("state", state);
                lines.add(new String[] {Long.toString(pid), "-", target.commandName(), state});
            }
            rows.add(row);
        }
        if (json) {
            Map<String, Object> all = new LinkedHashMap<>();
            all.put("schema", SCHEMA);
            all.put("jvms", rows);
            all.put("otherUsersJvms", otherUsers);
            out.print(Json.write(all));
            return Commands.OK;
        }
        if (rows.isEmpty()) {
            out.println("no JVM of yours is running on this machine (besides this command's)");
        } else {
            lines.add(0, new String[] {"PID", "JDK", "MAIN", "FASTCLOCK"});
            out.print(table(lines));
        }
        if (otherUsers > 0) {
            out.println(otherUsers + " JVM" + (otherUsers == 1 ? "" : "s") + " of other users not shown: run the command as their user to attach");
        }
        return Commands.OK;
    }

    /**
     * The rows as columns as wide as their widest cell, the last (fastclock's state, whose reasons run
     * long) unpadded at the end, so that no cell is cut and no long one pushes the others out of line.
     */
    static String table(List<String[]> lines) {
        int columns = lines.get(0).length;
        int[] widths = new int[columns];
        for (String[] line : lines) {
            for (int c = 0; c < columns - 1; c++) {
                widths[c] = Math.max(widths[c], line[c].length());
            }
        }
        StringBuilder b = new StringBuilder();
        for (String[] line : lines) {
            for (int c = 0; c < columns - 1; c++) {
                b.append(line[c]);
                for (int pad = line[c].length(); pad <= widths[c]; pad++) {
                    b.append(' ');
                }
            }
            b.append(line[columns - 1]).append('\n');
        }
        return b.toString();
    }

    static String summary(TargetStatus status) {
        if (!status.loaded()) {
            return "not loaded";
        }
        if (!status.active()) {
            String reason = status.get(TargetStatus.REASON);
            return "inactive" + (reason == null ? "" : ": " + (reason.startsWith("inactive: ") ? reason.substring(10) : reason));
        }
        String s = "active (" + status.get(TargetStatus.STARTED) + "): millis " + status.get(TargetStatus.MILLIS) + ", nanos "
                + status.get(TargetStatus.NANOS) + ", " + status.get(TargetStatus.CLASSES) + " classes";
        return status.get(TargetStatus.FALLBACK) != null ? s + ", fell back" : s;
    }
}
