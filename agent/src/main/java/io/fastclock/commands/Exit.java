package io.fastclock.commands;

import io.fastclock.config.OneLine;

/**
 * How a command ends when it does not return its result: help was asked for (stdout, exit 0), the
 * command line is wrong (stderr, 2) or it failed (stderr, 1). Each says only what happened;
 * {@link Commands#run(Command, String[], java.io.PrintStream, java.io.PrintStream)} prints it, after
 * {@code fastclock NAME: } and, for a wrong command line, followed by the command's help.
 */
final class Exit extends Exception {
    private static final long serialVersionUID = 1L;

    final int status;
    /** Whether the command's help follows the message (a wrong command line). */
    final boolean withHelp;
    /** Printed after the message line as it is (the state a failure leaves), or null. */
    final String detail;

    private Exit(int status, String message, boolean withHelp, String detail) {
        super(message, null, false, false);
        this.status = status;
        this.withHelp = withHelp;
        this.detail = detail;
    }

    /** {@code --help} or {@code -h}: the command's help on stdout, exit status 0. */
    static Exit help() {
        return new Exit(Commands.OK, null, false, null);
    }

    /** A wrong command line: the message, then the command's help. */
    static Exit usage(String message) {
        return new Exit(Commands.USAGE, message, true, null);
    }

    /** An argument the command does not take. */
    static Exit unexpected(String arg) {
        return usage("unexpected argument '" + OneLine.escape(arg) + "'");
    }

    /** A wrong command line whose message says all there is to say (no help after it). */
    static Exit usageAlone(String message) {
        return new Exit(Commands.USAGE, message, false, null);
    }

    /** The command could not do its work: the message says why. */
    static Exit failed(String message) {
        return new Exit(Commands.FAILED, message, false, null);
    }

    /** As {@link #failed(String)}, with lines printed after the message as they are. */
    static Exit failed(String message, String detail) {
        return new Exit(Commands.FAILED, message, false, detail);
    }

    boolean isHelp() {
        return getMessage() == null;
    }
}
