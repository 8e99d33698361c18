package io.fastclock.commands;

import io.fastclock.attach.AttachTransport;

import io.fastclock.doctor.Json;

import java.io.IOException;
import java.io.PrintStream;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** {@code status PID [--json]}: fastclock's state in a running JVM, read from its agent properties (never from its
 * fastclock.* system properties, which the application can set). */
final class StatusCommand implements Command {
    private final JvmAccess access;

    StatusCommand(JvmAccess access) {
        this.access = access;
    }

    @Override
    public String name() {
        return "status";
    }

    @Override
    public String synopsis() {
        return "status PID [--json]";
    }

    @Override
    public String summary() {
        return "fastclock's state in a running JVM";
    }

    @Override
    public String help() {
        return "usage: java -jar " + Commands.jarPathForHelp() + " status PID [--json] " + Commands.TRANSPORT_SYNOPSIS + "\n"
                + "  Whether fastclock is in the JVM PID, active or not and why, the backend of each clock, the classes\n"
                + "  and call sites rewritten, the TSC clock's health (worst error, re-anchors) and any fallback with\n"
                + "  its reason. Read from the JVM's agent properties, where the agent publishes it (application code\n"
                + "  cannot write them), through the attach mechanism; nothing is loaded into the JVM. Exit status 0 when\n"
                + "  the JVM could be read (fastclock in it or not), 1 when not.\n"
                + Commands.TRANSPORT_HELP;
    }

    @Override
    public int run(String[] args, PrintStream out, PrintStream err) throws Exit {
        CommandLine line = CommandLine.parse(args, 1, Collections.singleton(Commands.JSON), Commands.attachOptions());
        boolean json = line.has(Commands.JSON);
        AttachTransport transport = Commands.transport(line);
        long pid = Commands.pid(line.positional(0));
        String problem = TargetProcess.of(pid).problem();
        if (problem != null) {
            throw Exit.failed(problem);
        }
        TargetStatus status;
        try {
            status = TargetStatus.read(access.api(transport), pid);
        } catch (IOException | RuntimeException e) {
            throw Exit.failed("cannot read the JVM " + pid + ": " + Commands.describe(e));
        }
        if (json) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("schema", TargetStatus.SCHEMA);
            m.putAll(status.toMap());
            out.print(Json.write(m));
        } else {
            out.print(status.text());
        }
        return Commands.OK;
    }
}
