package io.fastclock.observe;

import io.fastclock.config.BackendNames;

/**
 * What the agent decided at start (premain or agentmain), as plain values for the Activation event
 * and the MBean: no JFR, JMX or runtime types, so it can be built on every path. Costs are ns per
 * call as measured at start-up, NaN where not measured.
 */
public final class ActivationFacts {
    public final String started;
    public final boolean active;
    public final String reason;
    public final String clocksource;
    public final String millisBackend;
    public final String millisReason;
    public final String nanosBackend;
    public final String nanosReason;
    public final long millisLagNs;
    public final double systemMillisNs;
    public final double systemNanosNs;
    public final double millisBackendNs;
    public final double nanosBackendNs;
    public final long thresholdNs;

    public ActivationFacts(String started, boolean active, String reason, String clocksource,
            String millisBackend, String millisReason, String nanosBackend, String nanosReason,
            long millisLagNs, double systemMillisNs, double systemNanosNs,
            double millisBackendNs, double nanosBackendNs, long thresholdNs) {
        this.started = started;
        this.active = active;
        this.reason = reason;
        this.clocksource = clocksource;
        this.millisBackend = millisBackend;
        this.millisReason = millisReason;
        this.nanosBackend = nanosBackend;
        this.nanosReason = nanosReason;
        this.millisLagNs = millisLagNs;
        this.systemMillisNs = systemMillisNs;
        this.systemNanosNs = systemNanosNs;
        this.millisBackendNs = millisBackendNs;
        this.nanosBackendNs = nanosBackendNs;
        this.thresholdNs = thresholdNs;
    }

    /** Both clocks left on the system clock, for the reason given (the start line without its prefix). */
    public static ActivationFacts inactive(String started, String reason, String clocksource, long thresholdNs) {
        return new ActivationFacts(started, false, reason, clocksource, BackendNames.SYSTEM, reason, BackendNames.SYSTEM, reason, 0,
                Double.NaN, Double.NaN, Double.NaN, Double.NaN, thresholdNs);
    }
}
