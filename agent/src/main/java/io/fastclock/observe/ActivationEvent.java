package io.fastclock.observe;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Period;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/**
 * What fastclock decided at start: committed once when the agent starts (premain or agentmain),
 * and at the beginning of every chunk, so that a recording started later also holds it.
 */
@Name("fastclock.Activation")
@Category("fastclock")
@Label("fastclock Activation")
@Description("Which clock backs currentTimeMillis and nanoTime, why, and what the clocks cost at start-up")
@StackTrace(false)
@Period("beginChunk")
final class ActivationEvent extends Event {
    @Label("Started By")
    @Description("premain (-javaagent) or agentmain (attached to a running JVM); text, no unit")
    String started;

    @Label("Active")
    @Description("true when call sites are rewritten to a fastclock backend")
    boolean active;

    @Label("Reason")
    @Description("The agent's start line without its prefix; text, no unit")
    String reason;

    @Label("Clocksource")
    @Description("The kernel's current clocksource (empty when unreadable); text, no unit")
    String clocksource;

    @Label("currentTimeMillis Backend")
    @Description("system, coarse, tsc or jna-coarse")
    String millisBackend;

    @Label("currentTimeMillis Reason")
    @Description("Why that backend; text, no unit")
    String millisReason;

    @Label("nanoTime Backend")
    @Description("system, coarse or tsc")
    String nanosBackend;

    @Label("nanoTime Reason")
    @Description("Why that backend; text, no unit")
    String nanosReason;

    @Label("java.time Backend")
    @Description("Backend of java.time's epoch read (system property fastclock.epoch; empty when not published)")
    String epochBackend;

    @Label("currentTimeMillis Lag")
    @Description("The most a currentTimeMillis read may trail CLOCK_REALTIME, as the backend states it")
    @Timespan(Timespan.NANOSECONDS)
    long millisLag;

    @Label("System.currentTimeMillis Cost (ns per call)")
    @Description("Measured at start-up, in nanoseconds per call; NaN when not measured")
    double systemMillisNanosPerCall;

    @Label("System.nanoTime Cost (ns per call)")
    @Description("Measured at start-up, in nanoseconds per call; NaN when not measured")
    double systemNanosNanosPerCall;

    @Label("currentTimeMillis Backend Cost (ns per call)")
    @Description("The chosen backend's cost measured at start-up, in nanoseconds per call; NaN when not measured")
    double millisBackendNanosPerCall;

    @Label("nanoTime Backend Cost (ns per call)")
    @Description("The chosen backend's cost measured at start-up, in nanoseconds per call; NaN when not measured")
    double nanosBackendNanosPerCall;

    @Label("Threshold")
    @Description("A system clock costing more than this per call counts as slow")
    @Timespan(Timespan.NANOSECONDS)
    long threshold;

    void fill(ActivationFacts f) {
        started = f.started;
        active = f.active;
        reason = f.reason;
        clocksource = f.clocksource == null ? "" : f.clocksource;
        millisBackend = f.millisBackend;
        millisReason = f.millisReason;
        nanosBackend = f.nanosBackend;
        nanosReason = f.nanosReason;
        String epoch = Telemetry.live(io.fastclock.config.PublishedState.EPOCH);
        epochBackend = epoch == null ? "" : epoch;
        millisLag = f.millisLagNs;
        systemMillisNanosPerCall = f.systemMillisNs;
        systemNanosNanosPerCall = f.systemNanosNs;
        millisBackendNanosPerCall = f.millisBackendNs;
        nanosBackendNanosPerCall = f.nanosBackendNs;
        threshold = f.thresholdNs;
    }
}
