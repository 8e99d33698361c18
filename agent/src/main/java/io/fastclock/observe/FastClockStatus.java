package io.fastclock.observe;

import io.fastclock.config.PublishedState;

/**
 * The MBean behind {@code io.fastclock:type=FastClock}. Every read is live: the agent's state as it
 * holds it in memory (Telemetry.live: the agent's AgentState, written as the state changes; never the
 * fastclock.* system properties, which any code in the JVM can set) and the TSC clock's own figures.
 */
final class FastClockStatus implements FastClockMXBean {
    private final ActivationFacts facts;
    private volatile TscFigures tsc;

    FastClockStatus(ActivationFacts facts) {
        this.facts = facts;
    }

    void tscClock(TscFigures figures) {
        this.tsc = figures;
    }

    private static String property(String name, String otherwise) {
        String value = Telemetry.live(name);
        return value == null || value.isEmpty() ? otherwise : value;
    }

    private static Long count(String name) {
        String value = Telemetry.live(name);
        if (value == null) {
            return null;
        }
        try {
            return Long.valueOf(value.trim());
        } catch (NumberFormatException e) {
            return null;
        }
    }

    @Override
    public boolean isActive() {
        return Boolean.parseBoolean(property(PublishedState.ACTIVE, Boolean.toString(facts.active)));
    }

    @Override
    public String getStarted() {
        return property(PublishedState.STARTED, facts.started);
    }

    @Override
    public String getVersion() {
        return property(PublishedState.VERSION, null);
    }

    @Override
    public String getReason() {
        return property(PublishedState.REASON, facts.reason);
    }

    @Override
    public String getMillisBackend() {
        return property(PublishedState.MILLIS, facts.millisBackend);
    }

    @Override
    public String getNanosBackend() {
        return property(PublishedState.NANOS, facts.nanosBackend);
    }

    @Override
    public String getEpochBackend() {
        return property(PublishedState.EPOCH, null);
    }

    @Override
    public Long getClasses() {
        return count(PublishedState.CLASSES);
    }

    @Override
    public Long getCallSites() {
        return count(PublishedState.CALLSITES);
    }

    @Override
    public Long getJdkClasses() {
        return count(PublishedState.JDK_CLASSES);
    }

    @Override
    public Long getJdkCallSites() {
        return count(PublishedState.JDK_CALLSITES);
    }

    @Override
    public Long getMillisLagMs() {
        return count(PublishedState.MILLIS_LAG_MS);
    }

    @Override
    public String getFallback() {
        TscFigures t = tsc;
        return property(PublishedState.FALLBACK, t == null ? null : t.fallbackReason());
    }

    @Override
    public boolean isTscRunning() {
        TscFigures t = tsc;
        return t != null && t.fallbackReason() == null;
    }

    @Override
    public Long getTscLastErrorNanos() {
        TscFigures t = tsc;
        return t == null ? null : t.lastErrorNanos();
    }

    @Override
    public Long getTscWorstErrorNanos() {
        TscFigures t = tsc;
        return t == null ? null : t.worstErrorNanos();
    }

    @Override
    public Double getTscLastRateChangePpm() {
        TscFigures t = tsc;
        return t == null ? null : t.lastRateChangePpm();
    }

    @Override
    public Long getTscReanchors() {
        TscFigures t = tsc;
        return t == null ? null : t.reanchors();
    }

    @Override
    public Long getTscLateExtensions() {
        TscFigures t = tsc;
        return t == null ? null : t.lateExtensions();
    }

    @Override
    public Long getTscFallbackErrorNanos() {
        TscFigures t = tsc;
        return t == null || t.fallbackReason() == null ? null : t.fallbackErrorNanos();
    }
}
