package io.fastclock.doctor;

import io.fastclock.config.OneLine;
import io.fastclock.config.Settings;
import io.fastclock.config.SettingsException;

import java.io.PrintStream;

/**
 * {@code java -jar fastclock.jar [--json]}: what this machine's clocks are, what they cost and what
 * the agent would do here, with reasons. Exits 0 whatever it finds; a machine it cannot read is
 * reported, not a crash. Only a wrong command line exits non-zero (2).
 */
public final class Doctor {
    /** Exit status for a command line it does not understand. */
    static final int USAGE = 2;

    private Doctor() {}

    /** Produces the report, as text or as JSON. May throw anything: {@link #run} turns that into one line. */
    public interface Reporter {
        String report(Settings settings, boolean json);
    }

    public static final Reporter REAL = (settings, json) -> {
        DoctorFacts facts = DoctorFacts.collect(settings);
        return json ? Json.write(DoctorJson.render(facts)) : DoctorText.render(facts);
    };

    public static void main(String[] args) {
        int status = run(args, System.out, System.err, REAL);
        if (status != 0) {
            System.exit(status);
        }
    }

    /** The whole doctor, minus System.exit: returns the exit status. */
    public static int run(String[] args, PrintStream out, PrintStream err, Reporter reporter) {
        boolean json = false;
        for (String arg : args) {
            if (arg.equals("--json")) {
                json = true;
            } else if (arg.equals("--help") || arg.equals("-h")) {
                out.println("usage: java -jar fastclock.jar [--json]\n"
                        + "  Reports the clocksource, the TSC checks, the measured cost of each clock, the measured lag of\n"
                        + "  each millis clock and what -javaagent:fastclock.jar would do on this machine.\n"
                        + "  -Dfastclock.* settings apply.");
                return 0;
            } else {
                err.println("fastclock doctor: unknown argument '" + OneLine.escape(arg) + "' (accepted: --json, --help)");
                return USAGE;
            }
        }
        String text;
        try {
            Settings settings;
            try {
                settings = Settings.fromSystem(null);
            } catch (SettingsException e) {
                err.println(e.getMessage());
                settings = Settings.defaults();
            }
            text = reporter.report(settings, json);
        } catch (Throwable t) {
            // Whatever broke (a file, the native library, a measurement, a bug), the answer is one
            // line saying so, not a stack trace and not a failed exit status.
            String line = "fastclock doctor: could not complete the report: " + describe(t);
            err.println(line);
            if (json) {
                out.print(Json.write(DoctorJson.error(line)));
            }
            return 0;
        }
        out.print(text);
        return 0;
    }

    /** "java.lang.IllegalStateException: no clock (at io.fastclock.X.y(X.java:12)); cause: ..." on one line. */
    static String describe(Throwable t) {
        StringBuilder b = new StringBuilder();
        int depth = 0;
        for (Throwable c = t; c != null && depth < 4; c = c.getCause(), depth++) {
            if (depth > 0) {
                b.append("; cause: ");
            }
            b.append(c.getClass().getName());
            String message = c.getMessage();
            if (message != null && !message.isEmpty()) {
                b.append(": ").append(message.replaceAll("\\s+", " ").trim());
            }
            StackTraceElement[] frames = c.getStackTrace();
            if (frames.length > 0) {
                b.append(" (at ").append(frames[0]).append(')');
            }
            if (c.getCause() == c) {
                break;
            }
        }
        return b.toString();
    }
}
