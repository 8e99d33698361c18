package io.fastclock.commands;

import io.fastclock.attach.AttachTransport;
import io.fastclock.config.BuildVersion;
import io.fastclock.config.OneLine;

import java.io.PrintStream;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code java -jar fastclock.jar [COMMAND] ...}: without a command, the doctor; with one, attach,
 * status, list or detach. Exit status: 0 done (attach: fastclock is active in the target),
 * 1 failed (the message says why), 2 wrong command line, 3 attached but inactive (it says why).
 *
 * <p>Every command, the doctor included, is a {@link Command} in {@link #COMMANDS}; {@link #run(Command,
 * String[], PrintStream, PrintStream)} runs one and prints how it ended.
 */
public final class Commands {
    static final int OK = 0;
    static final int FAILED = 1;
    static final int USAGE = 2;
    static final int INACTIVE = 3;
    /** The flag of the commands that can answer in JSON. */
    static final String JSON = "--json";
    /** The option of the commands that attach: how this JVM reaches the other ({@link AttachTransport}). */
    static final String TRANSPORT = "--transport";
    /** --transport in a command's usage line. */
    static final String TRANSPORT_SYNOPSIS = "[" + TRANSPORT + " " + String.join("|", transportNames()) + "]";
    /** --transport in a command's help. */
    static final String TRANSPORT_HELP = "  " + TRANSPORT + " picks how this JVM reaches the other: jdk_attach (the JDK's attach API), jna\n"
            + "  (HotSpot's attach protocol over fastclock's private JNA) or nio (the same over a java.nio socket,\n"
            + "  JDK 16+); without it, the first of these this runtime has (jna where it has no jdk.attach).\n";

    /** The doctor: what runs without a command, or with an option first. */
    private static final Command DOCTOR = new DoctorCommand(DoctorCommand.REAL);

    /** Every command, in the order the usage lists them; the first is the doctor. */
    static final List<Command> COMMANDS = Collections.unmodifiableList(Arrays.asList(
            DOCTOR, new AttachCommand(JvmAccess.REAL), new StatusCommand(JvmAccess.REAL), new ListCommand(JvmAccess.REAL),
            new DetachCommand(JvmAccess.REAL)));

    private Commands() {}

    public static void main(String[] args) {
        int status = run(args, System.out, System.err);
        // JNA's cleaner and the attach machinery start threads; the command is over.
        System.out.flush();
        System.exit(status);
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        boolean help = args.length > 0 && (isHelp(args[0]) || args[0].equals("help"));
        if (args.length > 0 && (args[0].equals("--version") || args[0].equals("version"))) {
            out.println("fastclock " + BuildVersion.get());
            return OK;
        }
        if (args.length == 0 || args[0].startsWith("-") && !help) {
            // The doctor's own options (--json), and its own message for one it does not know.
            return run(DOCTOR, args, out, err);
        }
        if (help) {
            out.print(usage());
            out.print(DOCTOR.help());
            return OK;
        }
        String[] rest = Arrays.copyOfRange(args, 1, args.length);
        for (Command command : COMMANDS) {
            if (command.name().equals(args[0])) {
                return run(command, rest, out, err);
            }
        }
        List<String> names = new ArrayList<>();
        for (Command command : COMMANDS) {
            names.add(command.name());
        }
        err.println(OneLine.PREFIX + "unknown command '" + OneLine.escape(args[0]) + "' (commands: " + String.join(", ", names)
                + "; none runs the doctor; --help says more)");
        return USAGE;
    }

    /**
     * Runs one command: the one place where how it ended becomes output and an exit status. Help
     * goes to stdout; a wrong command line and a failure go to stderr after {@code fastclock NAME: },
     * a wrong command line followed by the command's help.
     */
    static int run(Command command, String[] args, PrintStream out, PrintStream err) {
        try {
            return command.run(args, out, err);
        } catch (Exit exit) {
            if (exit.isHelp()) {
                out.print(command.help());
                return exit.status;
            }
            err.println("fastclock " + command.name() + ": " + exit.getMessage());
            if (exit.withHelp) {
                err.println(command.help());
            }
            if (exit.detail != null) {
                err.print(exit.detail);
            }
            return exit.status;
        }
    }

    /** The option every command takes for its help. */
    static boolean isHelp(String arg) {
        return arg.equals("--help") || arg.equals("-h");
    }

    static String usage() {
        String jar = jarPathForHelp();
        StringBuilder usage = new StringBuilder();
        for (Command command : COMMANDS) {
            usage.append(usage.length() == 0 ? "usage: java -jar " : "       java -jar ").append(jar).append(' ')
                    .append(String.format(Locale.ROOT, "%-30s ", command.synopsis())).append(command.summary()).append('\n');
        }
        return usage.append("Each command takes --help; --version prints fastclock's version. Exit status: 0 done,\n"
                + "1 failed (it says why), 2 wrong command line, 3 (attach) fastclock loaded but inactive (it says why).\n"
                + "attach, status, list and detach take " + TRANSPORT_SYNOPSIS + ": how to reach the JVM.\n")
                .toString();
    }

    /** "jdk_attach", "jna", "nio". */
    private static List<String> transportNames() {
        List<String> names = new ArrayList<>();
        for (AttachTransport transport : AttachTransport.values()) {
            names.add(transport.optionValue());
        }
        return names;
    }

    /** The options of a command that attaches, --transport with what it takes, and its own (name, what its value is). */
    static Map<String, String> attachOptions(String... own) {
        Map<String, String> options = new HashMap<>();
        options.put(TRANSPORT, AttachTransport.choices());
        for (int i = 0; i + 1 < own.length; i += 2) {
            options.put(own[i], own[i + 1]);
        }
        return options;
    }

    /** The transport --transport names, or null when it was not given; any other word is a wrong command line. */
    static AttachTransport transport(CommandLine line) throws Exit {
        String value = line.value(TRANSPORT);
        if (value == null) {
            return null;
        }
        AttachTransport transport = AttachTransport.named(value);
        if (transport == null) {
            throw Exit.usage(TRANSPORT + " takes " + AttachTransport.choices() + ", not '" + OneLine.escape(value) + "'");
        }
        return transport;
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

    /** The PID a command was given: a wrong or missing one is a wrong command line. */
    static long pid(String pidArg) throws Exit {
        long pid = parsePid(pidArg);
        if (pid < 0) {
            throw Exit.usage(pidArg == null ? "no PID given" : "'" + OneLine.escape(pidArg) + "' is not a process id");
        }
        return pid;
    }

    /** fastclock.jar, which a command that loads it into another JVM needs. */
    static Path ownJarFor(String command) throws Exit {
        Path jar = ownJar();
        if (jar == null) {
            throw Exit.failed("run from fastclock.jar (java -jar fastclock.jar " + command + " ...), not from classes");
        }
        return jar;
    }

    /** "1234" to 1234, or -1 for anything that is not a process id. */
    static long parsePid(String s) {
        return positiveWholeNumber(s);
    }

    /** A whole number from 1 to Integer.MAX_VALUE, digits only; -1 for anything else. */
    static long positiveWholeNumber(String s) {
        if (s == null || s.isEmpty() || s.length() > 10) {
            return -1;
        }
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                return -1;
            }
        }
        long n = Long.parseLong(s);
        return n > 0 && n <= Integer.MAX_VALUE ? n : -1;
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
