package io.fastclock.clock;

/**
 * Told once, on the thread that decided it, when a {@link TscClock} falls back to the system clock.
 * The agent side implements it (JFR event, published state); the runtime depends on nothing.
 * Called outside the clock's lock; it must not read the clock's lock-protected state nor block.
 */
public interface TscFallbackListener {
    /**
     * @param reason      why, as in the warning line
     * @param errorNanos  the TSC clock's value minus CLOCK_MONOTONIC at the moment it fell back
     *                    (positive: it was ahead)
     */
    void fellBack(String reason, long errorNanos);
}
