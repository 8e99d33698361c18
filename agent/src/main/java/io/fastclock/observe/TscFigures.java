package io.fastclock.observe;

/**
 * The running TSC clock's health as the JFR events and the MBean show it. An interface, so that the
 * classes that show it never link to the runtime (which is in the boot loader only when a clock
 * was installed).
 */
public interface TscFigures {
    /** The clock's value minus CLOCK_MONOTONIC at the last re-anchor, ns. */
    long lastErrorNanos();

    /** The largest such distance (by magnitude) since start, ns. */
    long worstErrorNanos();

    /** The measured rate against the start-up calibration, ppm. */
    double lastRateChangePpm();

    long reanchors();

    /** Segments extended by readers because the anchor thread was late. */
    long lateExtensions();

    /** Null while the clock runs. */
    String fallbackReason();

    /** The clock's value minus CLOCK_MONOTONIC when it fell back, ns (0 before). */
    long fallbackErrorNanos();
}
