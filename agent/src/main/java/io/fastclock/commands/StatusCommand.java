package io.fastclock.commands;

import io.fastclock.config.OneLine;
import io.fastclock.doctor.Json;

import java.io.IOException;
import java.io.PrintStream;

/** {@code status PID [--json]}: fastclock's state in a running JVM, read from its agent properties (never from its
 * fastclock.* system properties, which the application can set). */
final class StatusCommand {
    private final PrintStream out;
    private final PrintStream err;

    StatusCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    static String help() {
        return "usage: java -jar " + Commands.jarPathForHelp() + " status PID [--json]\n"
                + "  Whether fastclock is in the JVM PID, active or not and why, the backend of each clock, the classes\n"
                + "  and call sites rewritten, the TSC clock's health (worst error, re-anchors) and any fallback with\n"
                + "  its reason. Read from the JVM's agent properties, where the agent publishes it (application code\n"
                + "  cannot write them), through the attach mechanism; nothing is loaded into the JVM. Exit status 0 when\n"
                + "  the JVM could be read (fastclock in it or not), 1 when not.\n";
    }

    int run(String[] args) {
        boolean json = false;
        String pidArg = null;
        for (String arg : args) {
            if (arg.equals("--help") || arg.equals("-h")) {
                out.print(help());
                return Commands.OK;
            } else if (arg.equals("--json")) {
                json = true;
            } else if (pidArg == null) {
                pidArg = arg;
            } else {
                err.println("fastclock status: unexpected argument '" + OneLine.escape(arg) + "'\n" + help());
                return Commands.USAGE;
            }
        }
        long pid = Commands.parsePid(pidArg);
        if (pid < 0) {
            err.println("fastclock status: " + (pidArg == null ? "no PID given" : "'" + OneLine.escape(pidArg) + "' is not a process id") + "\n" + help());
            return Commands.USAGE;
        }
        String problem = TargetProcess.of(pid).problem();
        if (problem != null) {
            err.println("fastclock status: " + problem);
            return Commands.FAILED;
        }
        TargetStatus status;
        try {
            status = TargetStatus.read(AttachApis.forThisJvm(), pid);
        } catch (IOException | RuntimeException e) {
            err.println("fastclock status: cannot read the JVM " + pid + ": " + Commands.describe(e));
            return Commands.FAILED;
        }
        out.print(json ? Json.write(status.toMap()) : status.text());
        return Commands.OK;
    }
}
