package io.fastclock.doctor;

import io.fastclock.config.Settings;
import io.fastclock.config.SettingsException;

/**
 * {@code java -jar fastclock.jar [--json]}: what this machine's clocks are, what they cost and what
 * the agent would do here, with reasons. Exits 0 whatever it finds; a machine it cannot read is
 * reported, not a crash.
 */
public final class Doctor {
    private Doctor() {}

    public static void main(String[] args) {
        boolean json = false;
        for (String arg : args) {
            if (arg.equals("--json")) {
                json = true;
            } else if (arg.equals("--help") || arg.equals("-h")) {
                System.out.println("usage: java -jar fastclock.jar [--json]\n"
                        + "  Reports the clocksource, the TSC checks, the measured cost of each clock and what\n"
                        + "  -javaagent:fastclock.jar would do on this machine. -Dfastclock.* settings apply.");
                return;
            } else {
                System.err.println("fastclock doctor: unknown argument '" + arg + "' (accepted: --json, --help)");
                System.exit(2);
            }
        }
        Settings settings;
        try {
            settings = Settings.fromSystem(null);
        } catch (SettingsException e) {
            System.err.println(e.getMessage());
            settings = Settings.defaults();
        }
        DoctorReport report = DoctorReport.collect(settings);
        System.out.print(json ? Json.write(report.toMap()) : report.toText());
    }
}
