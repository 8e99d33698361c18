package io.fastclock.commands;

import io.fastclock.attach.AttachApi;
import io.fastclock.attach.AttachTransport;

import io.fastclock.config.OneLine;
import io.fastclock.config.Settings;
import io.fastclock.config.SettingsException;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Map;

/**
 * {@code attach PID [key=value,...]}: loads fastclock.jar into a running JVM with those settings,
 * waits for the agent's verdict in the JVM's agent properties and prints it with what was rewritten.
 */
final class AttachCommand implements Command {
    static final String TIMEOUT = "--timeout";
    static final long DEFAULT_TIMEOUT_SECONDS = 60;
    static final long POLL_MILLIS = 100;
    static final String JEP_451_NOTE = "note: a JVM of JDK 21 or later prints four WARNING lines on its stderr when an agent is"
            + " loaded into it while it runs (JEP 451: \"A Java agent has been loaded dynamically ...\"); they are the"
            + " JVM's notice, not an error, and fastclock works either way. Start the JVM with"
            + " -XX:+EnableDynamicAgentLoading to allow dynamic agents without them.";

    private final JvmAccess access;

    AttachCommand(JvmAccess access) {
        this.access = access;
    }

    @Override
    public String name() {
        return "attach";
    }

    @Override
    public String synopsis() {
        return "attach PID [key=value,...]";
    }

    @Override
    public String summary() {
        return "load fastclock into a running JVM and print its verdict";
    }

    @Override
    public String help() {
        return "usage: java -jar " + Commands.jarPathForHelp() + " attach PID [key=value,...] [--timeout SECONDS]\n"
                + "           " + Commands.TRANSPORT_SYNOPSIS + "\n"
                + "  Loads fastclock into the running JVM PID with those settings (the same as -javaagent's, e.g.\n"
                + "  mode=on,log=debug), waits for its verdict and prints it: active or not and why, the backend of\n"
                + "  each clock, the classes and call sites it rewrote and how long it took. When active, fastclock\n"
                + "  also rewrites the classes the JVM had already loaded (retransformation); a method then runs the\n"
                + "  rewritten code from its next call on.\n"
                + "  If fastclock is already in that JVM, its status is shown instead; a second copy is never loaded.\n"
                + "  JDK 21 and later print four WARNING lines on the target's stderr (JEP 451) unless the target was\n"
                + "  started with -XX:+EnableDynamicAgentLoading.\n"
                + Commands.TRANSPORT_HELP
                + "  Exit status: 0 fastclock is active in the JVM, 3 it started there but stayed inactive (the\n"
                + "  verdict says why), 1 it could not be loaded (the message says why), 2 wrong command line.\n";
    }

    @Override
    public int run(String[] args, PrintStream out, PrintStream err) throws Exit {
        CommandLine line = CommandLine.parse(args, 2, Collections.<String>emptySet(),
                Commands.attachOptions(TIMEOUT, "a number of seconds"));
        String pidArg = line.positional(0);
        String settingsArg = line.positional(1);
        long timeoutSeconds = line.value(TIMEOUT) == null ? DEFAULT_TIMEOUT_SECONDS : timeoutSeconds(line.value(TIMEOUT));
        AttachTransport transport = Commands.transport(line);
        long pid = Commands.pid(pidArg);
        if (settingsArg != null) {
            if (settingsArg.trim().equals("detach")) {
                throw Exit.usageAlone("'detach' is a command of its own: java -jar " + Commands.jarPathForHelp() + " detach " + pid);
            }
            try {
                // Checked here, so that a typo never reaches the target (where it would leave fastclock off).
                Settings.parse(settingsArg, (Map<String, String>) null);
            } catch (SettingsException e) {
                throw Exit.usageAlone(OneLine.withoutPrefix(e.getMessage()) + "; nothing was loaded into the JVM " + pid);
            }
        }
        Path jar = access.jar(name());
        TargetProcess target = TargetProcess.of(pid);
        String problem = target.problem();
        if (problem != null) {
            throw Exit.failed(problem);
        }
        String id = Long.toString(pid);
        AttachApi api;
        TargetStatus before;
        try {
            api = access.api(transport);
            before = TargetStatus.read(api, pid);
        } catch (IOException | RuntimeException e) {
            throw Exit.failed("cannot attach to the JVM " + pid + ": " + Commands.describe(e));
        }
        if (before.loaded()) {
            out.println("fastclock is already in " + before.title() + " (loaded by " + before.get(TargetStatus.STARTED)
                    + "); a second copy is not loaded" + (before.active() ? "" : ", and a JVM takes fastclock once: to run it"
                    + " with other settings, restart the JVM with -javaagent:" + jar + "=SETTINGS") + ". Its status:");
            out.print(before.text());
            return before.active() ? Commands.OK : Commands.INACTIVE;
        }
        out.println("attaching fastclock to " + before.title() + " through " + api.mechanism());
        if (before.jdkFeature() >= 21 && !target.cmdline().contains("-XX:+EnableDynamicAgentLoading")) {
            out.println(JEP_451_NOTE);
        }
        long started = System.nanoTime();
        try {
            api.loadAgent(id, jar.toFile(), settingsArg == null ? "" : settingsArg);
        } catch (IOException | RuntimeException e) {
            throw Exit.failed("loading the agent into the JVM " + pid + " failed: " + Commands.describe(e));
        }
        // agentmain has returned (the JVM's load command waits for it): a copy that started has published
        // that it did, so nothing published means the entry refused before starting, and no verdict will come.
        TargetStatus loaded = readQuietly(api, pid);
        if (loaded != null && !loaded.loaded()) {
            throw Exit.failed("the agent was loaded into the JVM " + pid + " but published nothing there: it refused"
                    + " before starting (or cannot publish its state); that JVM's stderr says why");
        }
        TargetStatus after = waitForVerdict(api, pid, timeoutSeconds);
        long elapsedMs = (System.nanoTime() - started) / 1_000_000L;
        if (after == null || !after.decided()) {
            throw Exit.failed("the agent was loaded into the JVM " + pid + " but gave no verdict within "
                    + timeoutSeconds + " s; see that JVM's stderr, or run: java -jar " + Commands.jarPathForHelp() + " status " + pid);
        }
        out.println((after.active() ? "fastclock is active in " : "fastclock started but is inactive in ") + after.title()
                + ", " + elapsedMs + " ms from attach to verdict:");
        if (after.pending() > 0) {
            long pending = after.pending();
            TargetStatus done = waitForGeneratedClasses(api, pid, timeoutSeconds);
            long doneMs = (System.nanoTime() - started) / 1_000_000L;
            if (done != null) {
                out.println("  and " + pending + " generated classes (no class file to read) checked in the background, "
                        + doneMs + " ms from attach:");
                after = done;
            }
        }
        out.print(after.text());
        return after.active() ? Commands.OK : Commands.INACTIVE;
    }

    /** The target's state, or null where it cannot be read just now. */
    private static TargetStatus readQuietly(AttachApi api, long pid) {
        try {
            return TargetStatus.read(api, pid);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** --timeout's value: a whole number of seconds, 1 or more. */
    static long timeoutSeconds(String value) throws Exit {
        long seconds = Commands.positiveWholeNumber(value);
        if (seconds < 1) {
            throw Exit.usage("--timeout takes a whole number of seconds, 1 or more, not '" + OneLine.escape(value) + "'");
        }
        return seconds;
    }

    /** Polls until the agent's background pass over generated classes is done, or null on timeout. */
    private static TargetStatus waitForGeneratedClasses(AttachApi api, long pid, long timeoutSeconds) {
        long deadline = System.nanoTime() + timeoutSeconds * 1_000_000_000L;
        while (System.nanoTime() < deadline) {
            try {
                TargetStatus status = TargetStatus.read(api, pid);
                if (status.pending() == 0) {
                    return status;
                }
                Thread.sleep(POLL_MILLIS);
            } catch (IOException | RuntimeException e) {
                return null;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            }
        }
        return null;
    }

    /** Polls the target's agent properties until the agent has published its verdict, or null on timeout. */
    private static TargetStatus waitForVerdict(AttachApi api, long pid, long timeoutSeconds) {
        long deadline = System.nanoTime() + timeoutSeconds * 1_000_000_000L;
        TargetStatus last = null;
        while (true) {
            try {
                last = TargetStatus.read(api, pid);
                if (last.decided()) {
                    return last;
                }
            } catch (IOException | RuntimeException e) {
                // the JVM may be busy (or gone): try again until the deadline
            }
            if (System.nanoTime() > deadline) {
                return last;
            }
            try {
                Thread.sleep(POLL_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return last;
            }
        }
    }
}
