package io.fastclock.examples;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/** What the demo runs on: JVM, clocksource, simulator and agent. Printed as the header. */
final class Environment {

    static final Path CLOCKSOURCE =
            Paths.get("/sys/devices/system/clocksource/clocksource0/current_clocksource");

    private Environment() {}

    /** The active clocksource named in {@code file}, or "unknown" if it cannot be read. */
    static String clocksource(Path file) {
        try {
            String s = new String(Files.readAllBytes(file), StandardCharsets.UTF_8).trim();
            return s.isEmpty() ? "unknown" : s;
        } catch (IOException | SecurityException e) {
            return "unknown";
        }
    }

    /** Whether LD_PRELOAD names the slow-clocksource simulator, with its settings. */
    static String simulator(String ldPreload, String spinNs, String fine, String steps, String serialize) {
        if (ldPreload == null || !ldPreload.contains("slowclock")) {
            return "no";
        }
        StringBuilder s = new StringBuilder("yes (LD_PRELOAD=").append(ldPreload);
        s.append(", SLOWCLOCK_FINE=").append(fine == null || fine.isEmpty() ? "syscall" : fine);
        s.append(", SLOWCLOCK_SPIN_NS=").append(spinNs == null || spinNs.isEmpty() ? "0" : spinNs);
        if ("1".equals(serialize)) {
            s.append(", SLOWCLOCK_SERIALIZE=1 (one read at a time, as HPET)");
        }
        if (steps != null && !steps.isEmpty()) {
            s.append(", SLOWCLOCK_STEPS=").append(steps);
        }
        return s.append(')').toString();
    }

    /** The agent's own report: the agent sets fastclock.active to "true" or "false". */
    static String agent(String activeProperty) {
        if (activeProperty == null) {
            return "not attached";
        }
        switch (activeProperty) {
            case "true":
                return "attached, active (fastclock.active=true)";
            case "false":
                return "attached, inactive (fastclock.active=false): the system clocks are used";
            default:
                return "attached, fastclock.active=" + activeProperty;
        }
    }

    static String header(int processors) {
        Report.Table t = new Report.Table("", "").left(1);
        t.row("JVM", System.getProperty("java.version") + " (" + System.getProperty("java.vm.name")
                + " " + System.getProperty("java.vm.version") + ", " + System.getProperty("java.vendor") + ")");
        t.row("processors", Integer.toString(processors));
        t.row("clocksource", clocksource(CLOCKSOURCE));
        t.row("slowclock simulator", simulator(System.getenv("LD_PRELOAD"), System.getenv("SLOWCLOCK_SPIN_NS"),
                System.getenv("SLOWCLOCK_FINE"), System.getenv("SLOWCLOCK_STEPS"), System.getenv("SLOWCLOCK_SERIALIZE")));
        t.row("fastclock agent", agent(System.getProperty("fastclock.active")));
        // Drop the empty header row and its rule: this is a list of facts, not a table.
        String[] lines = t.toString().split(System.lineSeparator(), 3);
        return lines.length == 3 ? lines[2] : "";
    }
}
