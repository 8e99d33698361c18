package io.fastclock.commands;

import io.fastclock.attach.AttachApi;
import io.fastclock.attach.AttachTransport;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Collections;

/**
 * {@code detach PID}: asks the fastclock in a running JVM to restore the original code of every
 * class it changed (agent.Detacher), then prints what it says.
 */
final class DetachCommand implements Command {
    static final long TIMEOUT_SECONDS = 60;
    static final String DETACH_ARGUMENT = "detach";

    private final JvmAccess access;

    DetachCommand(JvmAccess access) {
        this.access = access;
    }

    @Override
    public String name() {
        return "detach";
    }

    @Override
    public String synopsis() {
        return "detach PID";
    }

    @Override
    public String summary() {
        return "restore the original code in a JVM fastclock was attached to";
    }

    @Override
    public String help() {
        return "usage: java -jar " + Commands.jarPathForHelp() + " detach PID " + Commands.TRANSPORT_SYNOPSIS + "\n"
                + "  Restores the original code of every class fastclock changed in the JVM PID (loaded with -javaagent\n"
                + "  or attach), JDK classes included, and leaves the application on the system clocks. Before the\n"
                + "  switch the TSC clock falls back to the system clock and fastclock waits until System.nanoTime()\n"
                + "  has passed every value it handed out, so nanoTime never goes backwards across it. A method\n"
                + "  already running (a loop that never returns) keeps the code it started with. fastclock stays\n"
                + "  loaded but inactive; it cannot be attached again in that JVM. Exit status 0 when restored.\n"
                + Commands.TRANSPORT_HELP;
    }

    @Override
    public int run(String[] args, PrintStream out, PrintStream err) throws Exit {
        CommandLine line = CommandLine.parse(args, 1, Collections.<String>emptySet(), Commands.attachOptions());
        AttachTransport transport = Commands.transport(line);
        long pid = Commands.pid(line.positional(0));
        Path jar = access.jar(name());
        String problem = TargetProcess.of(pid).problem();
        if (problem != null) {
            throw Exit.failed(problem);
        }
        String id = Long.toString(pid);
        try {
            AttachApi api = access.api(transport);
            TargetStatus before = TargetStatus.read(api, pid);
            if (!before.loaded()) {
                throw Exit.failed("fastclock is not loaded in " + before.title() + "; nothing to restore");
            }
            if (before.detached()) {
                out.println("fastclock was already detached from " + before.title() + "; nothing more to restore:");
                out.print(before.text());
                return Commands.OK;
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
                if (after.detached()) {
                    out.println("fastclock detached from " + after.title() + ":");
                    out.print(after.text());
                    return Commands.OK;
                }
                Thread.sleep(100);
            }
            throw Exit.failed("the JVM " + pid + " did not report the detach within " + TIMEOUT_SECONDS + " s; its state:",
                    after.text());
        } catch (IOException | RuntimeException e) {
            throw Exit.failed(Commands.describe(e));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Commands.FAILED;
        }
    }
}
