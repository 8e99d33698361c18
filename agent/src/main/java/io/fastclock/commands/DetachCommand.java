package io.fastclock.commands;

import io.fastclock.config.OneLine;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;

/**
 * {@code detach PID}: asks the fastclock in a running JVM to restore the original code of every
 * class it changed (agent.Detacher), then prints what it says.
 */
final class DetachCommand {
    static final long TIMEOUT_SECONDS = 60;
    static final String DETACH_ARGUMENT = "detach";

    private final PrintStream out;
    private final PrintStream err;

    DetachCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    static String help() {
        return "usage: java -jar " + Commands.jarPathForHelp() + " detach PID\n"
                + "  Restores the original code of every class fastclock changed in the JVM PID (loaded with -javaagent\n"
                + "  or attach), JDK classes included, and leaves the application on the system clocks. Before the\n"
                + "  switch the TSC clock falls back to the system clock and fastclock waits until System.nanoTime()\n"
                + "  has passed every value it handed out, so nanoTime never goes backwards across it. A method\n"
                + "  already running (a loop that never returns) keeps the code it started with. fastclock stays\n"
                + "  loaded but inactive; it cannot be attached again in that JVM. Exit status 0 when restored.\n";
    }

    int run(String[] args) {
        String pidArg = null;
        for (String arg : args) {
            if (arg.equals("--help") || arg.equals("-h")) {
                out.print(help());
                return Commands.OK;
            } else if (pidArg == null) {
                pidArg = arg;
            } else {
                err.println("fastclock detach: unexpected argument '" + OneLine.escape(arg) + "'\n" + help());
                return Commands.USAGE;
            }
        }
        long pid = Commands.parsePid(pidArg);
        if (pid < 0) {
            err.println("fastclock detach: " + (pidArg == null ? "no PID given" : "'" + OneLine.escape(pidArg) + "' is not a process id") + "\n" + help());
            return Commands.USAGE;
        }
        Path jar = Commands.ownJar();
        if (jar == null) {
            err.println("fastclock detach: run from fastclock.jar (java -jar fastclock.jar detach ...), not from classes");
            return Commands.FAILED;
        }
        String problem = TargetProcess.of(pid).problem();
        if (problem != null) {
            err.println("fastclock detach: " + problem);
            return Commands.FAILED;
        }
        String id = Long.toString(pid);
        try {
            AttachApi api = AttachApis.forThisJvm();
            TargetStatus before = TargetStatus.read(api, pid);
            if (!before.loaded()) {
                err.println("fastclock detach: fastclock is not loaded in " + before.title() + "; nothing to restore");
                return Commands.FAILED;
            }
            if (!before.active()) {
                out.println("fastclock is inactive in " + before.title() + " and changed no code; nothing to restore:");
                out.print(before.text());
                return Commands.OK;
            }
            api.loadAgent(id, jar.toFile(), DETACH_ARGUMENT);
            long deadline = System.nanoTime() + TIMEOUT_SECONDS * 1_000_000_000L;
            TargetStatus after = before;
            while (System.nanoTime() < deadline) {
                after = TargetStatus.read(api, pid);
                String reason = after.get(TargetStatus.REASON);
                if (!after.active() && reason != null && reason.startsWith("detached")) {
                    out.println("fastclock detached from " + after.title() + ":");
                    out.print(after.text());
                    return Commands.OK;
                }
                Thread.sleep(100);
            }
            err.println("fastclock detach: the JVM " + pid + " did not report the detach within " + TIMEOUT_SECONDS + " s; its state:");
            err.print(after.text());
            return Commands.FAILED;
        } catch (IOException | RuntimeException e) {
            err.println("fastclock detach: " + Commands.describe(e));
            return Commands.FAILED;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Commands.FAILED;
        }
    }
}
