package io.fastclock.agent;

import io.fastclock.probe.MachineFacts;
import io.fastclock.probe.MachineReader;
import io.fastclock.runtime.TscTrust;

/**
 * The TSC clock's periodic re-check: the kernel's clocksource watchdog removes tsc from
 * available_clocksource once it finds the TSC unstable, and the agent follows it.
 */
final class SysfsTscTrust implements TscTrust {
    private final MachineReader reader;

    SysfsTscTrust(MachineReader reader) {
        this.reader = reader;
    }

    @Override
    public String untrustedReason() {
        MachineFacts facts = reader.read();
        if (!facts.tscListedAvailable()) {
            return "the kernel no longer lists tsc in available_clocksource (its watchdog found the TSC unstable)";
        }
        return null;
    }
}
