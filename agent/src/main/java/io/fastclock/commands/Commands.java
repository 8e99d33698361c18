package io.fastclock.commands;

import io.fastclock.config.OneLine;
import io.fastclock.doctor.Doctor;

import java.io.PrintStream;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;

/**
 * {@code java -jar fastclock.jar [COMMAND] ...}: without a command, the doctor; with one, attach,
 * status, list or detach. Exit status: 0 done (attach: fastclock is active in the target),
 * 1 failed (the message says why), 2 wrong command line, 3 attached but inactive (it says why).
 */
public final class Commands {
    static final int OK = 0;
    static final int FAILED = 1;
    static final int USAGE = 2;
    static final int INACTIVE = 3;

    private Commands() {}

    public static void main(String[] args) {
        int status = run(args, System.out, System.err);
        // JNA's cleaner and the attach machinery start threads; the command is over.
        System.out.flush();
        System.exit(status);
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        boolean help = args.length > 0 && (args[0].equals("--help") || args[0].equals("-h") || args[0].equals("help"));
        if (args.length == 0 || args[0].startsWith("-") && !help) {
            // The doctor's own options (--json), and its own message for one it does not know.
            return Doctor.run(args, out, err, Doctor.REAL);
        }
        String[] rest = Arrays.copyOfRange(args, 1, args.length);
        switch (args[0]) {
            case "--help":
            case "-h":
            case "help":
                out.print(usage());
                Doctor.run(new String[] {"--help"}, out, err, Doctor.REAL);
                return OK;
            case "doctor":
                return Doctor.run(rest, out, err, Doctor.REAL);
            case "attach":
                return new AttachCommand(out, err).run(rest);
            case "status":
                return new StatusCommand(out, err).run(rest);
            case "list":
                return new ListCommand(out, err).run(rest);
            case "detach":
                return new DetachCommand(out, err).run(rest);
            default:
                err.println("fastclock: unknown command '" + OneLine.escape(args[0]) + "' (commands: attach, status, list, detach;"
                        + " none runs the doctor; --help says more)");
                return USAGE;
        }
    }

    static String usage() {
        String jar = jarPathForHelp();
        return "usage: java -jar " + jar + " [--json]                       the doctor: this machine's clocks and what fastclock would do\n"
                + "       java -jar " + jar + " attach PID [key=value,...]     load fastclock into a running JVM and print its verdict\n"
                + "       java -jar " + jar + " status PID [--json]            fastclock's state in a running JVM\n"
                + "       java -jar " + jar + " list [--json]                  the JVMs you may attach to, with fastclock's state in each\n"
                + "       java -jar " + jar + " detach PID                     restore the original code in a JVM fastclock was attached to\n"
                + "Each command takes --help. Exit status: 0 done, 1 failed (it says why), 2 wrong command line,\n"
                + "3 (attach) fastclock loaded but inactive (it says why).\n";
    }

    /** The jar's path as the user would type it (for help and error messages). */
    static String jarPathForHelp() {
        Path jar = ownJar();
        return jar == null ? "fastclock.jar" : jar.toString();
    }

    /** fastclock.jar itself, or null when running from classes (tests). */
    static Path ownJar() {
        try {
            Path p = Paths.get(Commands.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return p.toString().endsWith(".jar") ? p : null;
        } catch (Exception e) {
            return null;
        }
    }

    /** "1234" to 1234, or -1 for anything that is not a process id. */
    static long parsePid(String s) {
        if (s == null || s.isEmpty() || s.length() > 10) {
            return -1;
        }
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                return -1;
            }
        }
        long pid = Long.parseLong(s);
        return pid > 0 && pid <= Integer.MAX_VALUE ? pid : -1;
    }

    /** The message of what went wrong, without Byte Buddy's and jdk.attach's wrapping. */
    static String describe(Throwable t) {
        Throwable c = t;
        while (c.getCause() != null && c.getCause() != c && (c.getMessage() == null || c instanceof java.io.IOException
                && c.getCause() instanceof Exception && c.getMessage().equals(c.getCause().toString()))) {
            c = c.getCause();
        }
        String message = c.getMessage();
        String name = c.getClass().getSimpleName();
        return message == null || message.isEmpty() ? name : name + ": " + message.replaceAll("\\s+", " ").trim();
    }
}
