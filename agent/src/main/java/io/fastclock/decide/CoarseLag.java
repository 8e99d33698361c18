package io.fastclock.decide;

/**
 * The lag L a coarse currentTimeMillis states (millis.lag in docs/CONTRACT.md), from what the machine
 * shows rather than what the tick promises. "Two ticks" assumes ticks arrive on time; under
 * emulation, and in VMs with steal time, the kernel's tick runs late and CLOCK_REALTIME_COARSE was
 * measured 9.8 ms behind CLOCK_REALTIME with 4 ms ticks. Pure arithmetic, so every rule has a unit test.
 *
 * <ul>
 *   <li>Stated: the measured worst lag plus one tick of margin, rounded up to a whole ms, and never
 *       below two ticks.</li>
 *   <li>Cap: five ticks, and never below {@link #MIN_CAP_NS}. A lag that needs more is not
 *       stated: the coarse clock is not chosen, or, found while running, currentTimeMillis goes back
 *       to the system clock for good.</li>
 *   <li>Restated while running: a read found further behind than L makes L that read's lag plus one
 *       tick (rounded up to a whole ms), up to the cap.</li>
 * </ul>
 */
public final class CoarseLag {
    /** The cap never goes below this, so a 1 ms tick still absorbs a tick a few ms late. */
    public static final long MIN_CAP_NS = 10_000_000L;
    /**
     * The cap in ticks. Five: this machine's coarse clock is 7 ms behind with 4 ms ticks when idle
     * (not two ticks' worth of sawtooth, one), and the lab's guest 9.8 ms; five ticks leave room to
     * restate such a machine's L once or twice before giving up on the coarse clock.
     */
    public static final long CAP_TICKS = 5;
    /** What a lag that cannot be stated returns. */
    public static final long NONE = -1;

    private static final long MS = 1_000_000L;

    private CoarseLag() {}

    /** Two ticks: what the tick promises, and the floor of every stated L; -1 if the tick is unknown or too coarse. */
    public static long floorNs(long resolutionNs) {
        return usable(resolutionNs) ? 2 * resolutionNs : NONE;
    }

    /** The most L may become; -1 if the tick is unknown or too coarse. */
    public static long capNs(long resolutionNs) {
        return usable(resolutionNs) ? Math.max(CAP_TICKS * resolutionNs, MIN_CAP_NS) : NONE;
    }

    /**
     * The L to state after measuring a worst lag of measuredNs (MillisLagMeter's "behind"; 0 or less:
     * never behind). May exceed {@link #capNs}: the caller then does not use the clock.
     *
     * @return -1 if the tick is unknown or too coarse
     */
    public static long statedNs(long resolutionNs, long measuredNs) {
        if (!usable(resolutionNs)) {
            return NONE;
        }
        long withMargin = roundUpToMs(Math.max(measuredNs, 0) + resolutionNs);
        return Math.max(floorNs(resolutionNs), withMargin);
    }

    /** Whether a lag of statedNs can be stated on this tick (known, and within the cap). */
    public static boolean withinCap(long resolutionNs, long statedNs) {
        return statedNs >= 0 && usable(resolutionNs) && statedNs <= capNs(resolutionNs);
    }

    /**
     * A read was seen behindNs behind the reference. Returns the L to state from now on: statedNs
     * itself when the read kept it, a larger one when the read broke it and the cap allows, or -1
     * when the cap does not (the clock must go back to the system clock).
     */
    public static long afterRead(long resolutionNs, long statedNs, long behindNs) {
        if (behindNs <= statedNs) {
            return statedNs;
        }
        long restated = statedNs(resolutionNs, behindNs);
        return withinCap(resolutionNs, restated) ? restated : NONE;
    }

    private static boolean usable(long resolutionNs) {
        return resolutionNs > 0 && resolutionNs <= DecisionMaker.MAX_COARSE_RESOLUTION_NS;
    }

    private static long roundUpToMs(long ns) {
        return (ns + MS - 1) / MS * MS;
    }
}
