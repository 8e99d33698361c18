package io.fastclock.commands;

import io.fastclock.config.OneLine;
import io.fastclock.config.Settings;
import io.fastclock.config.SettingsException;
import io.fastclock.doctor.DoctorFacts;
import io.fastclock.doctor.DoctorJson;
import io.fastclock.doctor.DoctorText;
import io.fastclock.doctor.Json;
import io.fastclock.doctor.LaunchProperties;

import java.io.PrintStream;

/**
 * {@code java -jar fastclock.jar [--json]}: what this machine's clocks are, what they cost and what
 * the agent would do here, with reasons (the report itself is io.fastclock.doctor's). Exits 0
 * whatever it finds; a machine it cannot read is reported, not a crash. Only a wrong command line
 * exits non-zero (2).
 */
final class DoctorCommand implements Command {
    /** Produces the report, as text or as JSON. May throw anything: {@link #run} turns that into one line. */
    interface Reporter {
        String report(Settings settings, boolean json);
    }

    static final Reporter REAL = (settings, json) -> {
        DoctorFacts facts = DoctorFacts.collect(settings);
        return json ? Json.write(DoctorJson.render(facts)) : DoctorText.render(facts);
    };

    private final Reporter reporter;

    DoctorCommand(Reporter reporter) {
        this.reporter = reporter;
    }

    @Override
    public String name() {
        return "doctor";
    }

    @Override
    public String synopsis() {
        return "[--json]";
    }

    @Override
    public String summary() {
        return "the doctor: this machine's clocks and what fastclock would do";
    }

    @Override
    public String help() {
        return "usage: java -jar fastclock.jar [--json]\n"
                + "  Reports the clocksource, the TSC checks, the measured cost of each clock, the measured lag of\n"
                + "  each millis clock and what -javaagent:fastclock.jar would do on this machine.\n"
                + "  -Dfastclock.* settings apply.\n";
    }

    @Override
    public int run(String[] args, PrintStream out, PrintStream err) throws Exit {
        boolean json = false;
        for (String arg : args) {
            if (arg.equals("--json")) {
                json = true;
            } else if (Commands.isHelp(arg)) {
                throw Exit.help();
            } else {
                throw Exit.usageAlone("unknown argument '" + OneLine.escape(arg) + "' (accepted: --json, --help)");
            }
        }
        String text;
        try {
            Settings settings;
            try {
                settings = Settings.parse(null, LaunchProperties.forTheDoctor(), System.getenv());
            } catch (SettingsException e) {
                err.println(e.getMessage());
                settings = Settings.defaults();
            }
            text = reporter.report(settings, json);
        } catch (Throwable t) {
            // Whatever broke (a file, the native library, a measurement, a bug), the answer is one
            // line saying so, not a stack trace, and the exit status says the report failed.
            String line = "fastclock doctor: could not complete the report: " + describe(t);
            err.println(line);
            if (json) {
                out.print(Json.write(DoctorJson.error(line)));
            }
            return Commands.FAILED;
        }
        out.print(text);
        return Commands.OK;
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
