package io.fastclock.observe;

/**
 * {@code io.fastclock:type=FastClock}: fastclock's state as {@code status} shows it (the published
 * {@code fastclock.*} system properties, falling back to what the agent decided at start where one
 * is not published) and the TSC clock's health. Null where a value does not apply or is not
 * published. Read-only.
 */
public interface FastClockMXBean {
    boolean isActive();

    /** premain or agentmain. */
    String getStarted();

    String getVersion();

    /** The start line without its prefix (OneLine.PREFIX). */
    String getReason();

    /** system, coarse, tsc or jna-coarse. */
    String getMillisBackend();

    /** system, coarse or tsc. */
    String getNanosBackend();

    /** java.time's epoch read: system, tsc, or (instant=coarse) coarse or jna-coarse. */
    String getEpochBackend();

    /** Application classes rewritten so far. */
    Long getClasses();

    /** Call sites replaced in them. */
    Long getCallSites();

    Long getJdkClasses();

    Long getJdkCallSites();

    /**
     * The lag L currentTimeMillis states now, whole ms: the start line's, restated while running when
     * a read of the coarse clock was further behind (0 on the system clock).
     */
    Long getMillisLagMs();

    /** The TSC fallback reason, once it fell back (or currentTimeMillis's, once it left the coarse clock). */
    String getFallback();

    /** True while a TSC clock runs (it serves a clock and has not fallen back). */
    boolean isTscRunning();

    /** The TSC clock's value minus CLOCK_MONOTONIC at its last re-anchor, ns. */
    Long getTscLastErrorNanos();

    /** The largest such distance since start, ns. */
    Long getTscWorstErrorNanos();

    /** The measured TSC rate against its start-up calibration, ppm. */
    Double getTscLastRateChangePpm();

    Long getTscReanchors();

    /** Segments extended by readers because the anchor thread was late. */
    Long getTscLateExtensions();

    /** The TSC clock's value minus CLOCK_MONOTONIC when it fell back, ns. */
    Long getTscFallbackErrorNanos();
}
