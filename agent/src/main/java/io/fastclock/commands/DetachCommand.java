package io.fastclock.commands;

import java.io.PrintStream;

/** {@code detach PID}: see {@link #help()}. */
final class DetachCommand {
    private final PrintStream out;
    private final PrintStream err;

    DetachCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    static String help() {
        return "usage: java -jar " + Commands.jarPathForHelp() + " detach PID\n"
                + "  Not offered yet: restoring the original code needs fastclock's transformer to be registered for\n"
                + "  retransformation, which this build does not do.\n";
    }

    int run(String[] args) {
        for (String arg : args) {
            if (arg.equals("--help") || arg.equals("-h")) {
                out.print(help());
                return Commands.OK;
            }
        }
        err.print("fastclock detach: " + help());
        return Commands.FAILED;
    }
}
