package io.fastclock.agent;

import io.fastclock.probe.MachineReader;
import io.fastclock.clock.TscTrust;
import java.util.ArrayList;
import java.util.List;

/**
 * The TSC clock's periodic re-check: the kernel's clocksource watchdog removes tsc from
 * available_clocksource once it finds the TSC unstable, and the agent follows it.
 *
 * <p>Not being able to read the file is a different thing (a SecurityManager installed later, file
 * descriptors exhausted, /sys hidden): the TSC is kept for a few re-checks in a row, then given up
 * with the real cause, since the kernel can no longer be heard.
 */
final class SysfsTscTrust implements TscTrust {
    static final int MAX_CONSECUTIVE_READ_FAILURES = 3;

    private final MachineReader reader;
    private int consecutiveReadFailures;

    SysfsTscTrust(MachineReader reader) {
        this.reader = reader;
    }

    @Override
    public String untrustedReason() {
        List<String> problems = new ArrayList<>();
        List<String> available = reader.readAvailableClocksources(problems);
        if (available == null) {
            if (++consecutiveReadFailures < MAX_CONSECUTIVE_READ_FAILURES) {
                return null;
            }
            return "available_clocksource could not be re-read " + consecutiveReadFailures + " times in a row ("
                    + (problems.isEmpty() ? "no detail" : problems.get(0))
                    + "), so it is unknown whether the kernel still trusts the TSC";
        }
        consecutiveReadFailures = 0;
        if (!available.contains("tsc")) {
            return "the kernel no longer lists tsc in available_clocksource (its watchdog found the TSC unstable)";
        }
        return null;
    }
}
