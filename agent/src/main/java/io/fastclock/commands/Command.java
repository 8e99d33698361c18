package io.fastclock.commands;

import java.io.PrintStream;

/**
 * One command of {@code java -jar fastclock.jar}, the doctor included: its name, its line in the
 * jar's usage, its help, and running it. {@link Commands} holds them in one table, and its
 * {@link Commands#run(Command, String[], PrintStream, PrintStream)} is the one place that turns how a
 * command ended into what is printed where and the exit status.
 */
interface Command {
    /** The word that selects it ({@code attach}); the doctor's is {@code doctor}. */
    String name();

    /** What follows the jar's path in its usage line ({@code attach PID [key=value,...]}). */
    String synopsis();

    /** What it does, for the usage line. */
    String summary();

    /** What {@code --help} prints on stdout, and what follows a wrong command line on stderr. */
    String help();

    /**
     * Runs it on the arguments after its name. Returns the exit status when it did its work
     * ({@link Commands#OK}, or {@link Commands#INACTIVE} for an attach that left fastclock inactive);
     * a request for help, a wrong command line and a failure are thrown as an {@link Exit}.
     */
    int run(String[] args, PrintStream out, PrintStream err) throws Exit;
}
