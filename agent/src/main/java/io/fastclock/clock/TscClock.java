package io.fastclock.clock;

import java.lang.invoke.VarHandle;
import java.util.Arrays;

/**
 * A nanoTime computed from the CPU's time-stamp counter, with the origin and rate of
 * CLOCK_MONOTONIC (System.nanoTime), and epoch millis derived from it.
 *
 * <h2>Why segments</h2>
 * The clock is one piecewise-linear function F of the tick count, built from immutable
 * {@link Segment}s that each cover a tick range [start, end). A segment is published before its
 * range begins and is never changed, so every thread that reads tick t computes the same F(t).
 * F is continuous and increasing, and the TSC is synchronised across CPUs (the probe checks it),
 * so values never go backwards, in one thread or across threads. Re-anchoring against
 * CLOCK_MONOTONIC only ever changes the rate of a future segment (slewing, bounded), never a
 * value that someone may already have read.
 *
 * <p>A reader holds at most two segments: the current one and the one before it (a new segment is
 * published while its predecessor is running, so a thread that sees the new one but read a tick
 * just before its start still finds its range). If the anchor thread is late and a tick falls past
 * the end of the current segment, the reader extends it at the same rate under a lock.
 *
 * <h2>Why a reader loads {@code current} twice</h2>
 * A reader hands out F(t) only if {@code current} still holds the segment it used after it read
 * the tick t. So every F value handed out comes from a tick read before the fallback segment was
 * published, and the fallback's floor can be F at the moment of publication (plus a margin)
 * instead of F at the end of the segment, which lies up to a segment (250 ms) in the future.
 */
public final class TscClock {
    static final int FRACTION_BITS = 32;
    private static final double ONE = 1L << FRACTION_BITS;
    /** Returned by {@link #evaluate} when the tick lies outside the segments a reader holds. */
    private static final long MISS = Long.MIN_VALUE;
    /**
     * Added to the fallback floor for a reader whose tick read the CPU executed after its second
     * load of {@code current}: rdtscp waits for earlier instructions, not later ones, so the load
     * can complete first. Nothing in the architecture bounds that gap; in practice it is the
     * latency of the loads still in flight before the rdtscp (a cache or TLB miss: well under a
     * microsecond), so 20 us is a wide margin, and it stays 5 times inside the contract's 100 us.
     */
    static final long IN_FLIGHT_MARGIN_NANOS = 20_000;

    /** Tunables; the defaults keep the contract with room to spare (see docs/DESIGN-NOTES.md, note 4). */
    public static final class Tuning {
        public long segmentNanos = 250_000_000L;
        public double maxSlewPpm = 500;
        /** Beyond this distance from CLOCK_MONOTONIC the TSC is no longer trusted. */
        public long maxErrorNanos = 2_000_000L;
        /**
         * Beyond this change of the measured rate from the calibrated one, plus what the read
         * windows of the samples behind both rates leave unsure, the TSC is no longer trusted.
         */
        public double maxRateChangePpm = 1000;
        /**
         * A re-anchor whose rate its samples' read windows leave more unsure than this waits for a
         * longer baseline while the current segment lasts: the next segment extends the clock at
         * that rate up to 500 ms past the sample (100 ppm: 50 us).
         */
        public double maxUnsurePpm = 100;
        public long recheckNanos = 1_000_000_000L;
    }

    static final class Segment {
        final long startTicks;
        final long endTicks;
        final long startNanos;
        /** ns per tick, fixed point with {@link #FRACTION_BITS} fraction bits. */
        final long mult;
        final Segment previous;

        Segment(long startTicks, long endTicks, long startNanos, long mult, Segment previous) {
            this.startTicks = startTicks;
            this.endTicks = endTicks;
            this.startNanos = startNanos;
            this.mult = mult;
            this.previous = previous;
        }

        long nanosAt(long ticks) {
            return startNanos + scale(ticks - startTicks, mult);
        }

        Segment detached() {
            return previous == null ? this : new Segment(startTicks, endTicks, startNanos, mult, null);
        }

        /** The system clock, never below startNanos (also true of {@link #CLOSING}). */
        boolean isFallback() {
            return startTicks == Long.MAX_VALUE;
        }
    }

    /** Published while a fallback computes its floor: readers that meet it wait on the lock. */
    private static final Segment CLOSING = new Segment(Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE, 0, null);

    /** (ticks * mult) >> 32 without overflow for any tick distance (128-bit product). */
    static long scale(long ticks, long mult) {
        long high = Math.multiplyHigh(ticks, mult);
        long low = ticks * mult;
        return (high << (64 - FRACTION_BITS)) | (low >>> FRACTION_BITS);
    }

    private final TickSource source;
    /** Read by currentTimeMillis only: may be unordered (see docs/DESIGN-NOTES.md, section 9). */
    private final TickSource millisSource;
    private final Tuning tuning;
    private final TscTrust trust;
    private final RuntimeLog log;
    private final Object lock = new Object();
    private final long segmentTicks;
    private final long baseTicks;
    private final long baseNanos;
    private final long baseWindowTicks;
    private final double calibratedNanosPerTick;
    private final double calibrationUncertaintyPpm;

    private volatile Segment current;
    private volatile long realtimeOffsetNanos;
    private volatile String fallbackReason;
    /** F minus CLOCK_MONOTONIC when the fallback was published; 0 before. */
    private volatile long fallbackErrorNanos;
    /** Copy-on-write: read once per fallback, written at start-up only. */
    private volatile TscFallbackListener[] fallbackListeners = new TscFallbackListener[0];

    // Written by the anchor thread only (and read by tests / the doctor).
    private volatile long lastErrorNanos;
    private volatile long worstErrorNanos;
    private volatile double lastRateChangePpm;
    private volatile long reanchors;
    private volatile long lateExtensions;
    private final long recheckTicks;
    private long lastTrustCheckTicks;
    private int sampleFailures;
    /** Set by a reader under the lock, read by the anchor thread without it. */
    private volatile boolean ticksWentBackwards;

    public TscClock(TickSource source, TscCalibration calibration, Tuning tuning, TscTrust trust, RuntimeLog log) {
        this(source, source, calibration, tuning, trust, log);
    }

    /**
     * @param source      an ordered tick read: nanoTime, the slow paths, the anchor thread
     * @param millisSource the same counter, read by currentTimeMillis's fast path (may be unordered)
     */
    public TscClock(TickSource source, TickSource millisSource, TscCalibration calibration, Tuning tuning, TscTrust trust,
                    RuntimeLog log) {
        if (!calibration.converged) {
            throw new IllegalArgumentException("calibration did not converge: " + calibration.problem);
        }
        this.source = source;
        this.millisSource = millisSource;
        this.tuning = tuning;
        this.trust = trust;
        this.log = log;
        this.calibratedNanosPerTick = calibration.nanosPerTick;
        this.calibrationUncertaintyPpm = calibration.rateUncertaintyPpm;
        this.baseTicks = calibration.anchorTicks;
        this.baseNanos = calibration.anchorNanos;
        this.baseWindowTicks = calibration.anchorWindowTicks;
        this.segmentTicks = Math.max(1, (long) (tuning.segmentNanos / calibration.nanosPerTick));
        this.realtimeOffsetNanos = calibration.realtimeOffsetNanos;
        // A short first segment: the start-up calibration is brief, so the first re-anchor (which
        // corrects its rate by slewing) comes after a fifth of the usual period.
        this.current = new Segment(baseTicks, baseTicks + segmentTicks / 5, baseNanos, toMult(calibration.nanosPerTick), null);
        this.recheckTicks = (long) (tuning.recheckNanos / calibration.nanosPerTick);
        this.lastTrustCheckTicks = baseTicks;
    }

    // ---- readers --------------------------------------------------------------------------------

    public long nanoTime() {
        Segment s = current;
        long t = source.ticks();
        long nanos = evaluate(s, t);
        return nanos != MISS && current == s ? nanos : slowNanoTime();
    }

    /** Returned by {@link #epochNanos()} once the clock has fallen back to the system clocks. */
    public static final long FALLEN_BACK = Long.MIN_VALUE;

    /**
     * Epoch time in ns (CLOCK_REALTIME's scale): F(t) plus the realtime offset of the last re-anchor,
     * the same sum {@link #currentTimeMillis()} truncates, so the two agree. {@link #FALLEN_BACK}
     * once the clock has fallen back: the caller then uses the JDK's own read.
     */
    public long epochNanos() {
        Segment s = current;
        long t = source.ticks();
        long nanos = evaluate(s, t);
        if (nanos == MISS || current != s) {
            if (current.isFallback()) {
                return FALLEN_BACK;
            }
            nanos = slowNanoTime();
        }
        return nanos + realtimeOffsetNanos;
    }

    public long currentTimeMillis() {
        Segment s = current;
        long t = millisSource.ticks();
        long nanos = evaluate(s, t);
        if (nanos == MISS || current != s) {
            if (current.isFallback()) {
                return source.systemMillis();
            }
            nanos = slowNanoTime();
        }
        return (nanos + realtimeOffsetNanos) / 1_000_000L;
    }

    private static long evaluate(Segment s, long t) {
        if (t >= s.startTicks) {
            return t < s.endTicks ? s.nanosAt(t) : MISS;
        }
        Segment p = s.previous;
        return p != null && t >= p.startTicks ? p.nanosAt(t) : MISS;
    }

    /**
     * A tick past the current segment, or a segment published between the two loads of
     * {@code current}: read a fresh tick against the segment now current, else under the lock.
     */
    private long slowNanoTime() {
        Segment s = current;
        if (s.isFallback() && s != CLOSING) {
            return Math.max(source.systemNanos(), s.startNanos);
        }
        if (s != CLOSING) {
            long t = source.ticks();
            long nanos = evaluate(s, t);
            if (nanos != MISS && current == s) {
                return nanos;
            }
        }
        String backwards = "a TSC read went backwards";
        long result;
        synchronized (lock) {
            // Under the lock current cannot change, and CLOSING is never visible here (the thread
            // publishing it holds the lock and does not read the clock until it is replaced).
            s = current;
            if (s.isFallback()) {
                return Math.max(source.systemNanos(), s.startNanos);
            }
            long t = source.ticks();
            long nanos = evaluate(s, t);
            if (nanos != MISS) {
                return nanos;
            }
            if (t >= s.endTicks) {
                // The anchor thread is late: extend at the same rate, which is F continued as is, by as
                // long as the segment ran (a short one's rate is good for no longer).
                Segment next = new Segment(s.endTicks, t + Math.min(segmentTicks, s.endTicks - s.startTicks),
                        s.nanosAt(s.endTicks), s.mult, s.detached());
                current = next;
                lateExtensions++;
                return next.nanosAt(t);
            }
            // A tick read after loading s but older than the segments held: only possible if the
            // TSC went backwards. No F value is safe to answer; fall back now, with the floor at
            // the end of the segment (above anything handed out), and answer from the fallback.
            ticksWentBackwards = true;
            if (!fallBackLocked(backwards)) {
                backwards = null;
            }
            result = Math.max(source.systemNanos(), current.startNanos);
        }
        if (backwards != null) {
            announceFallback(backwards);
        }
        return result;
    }

    // ---- anchor thread --------------------------------------------------------------------------

    /**
     * One round of the anchor thread ({@link TscAnchorThread}): the trust re-check when it is due,
     * and a re-anchor once the last published segment has begun. The two keep separate paces: a
     * re-check every {@code recheckNanos} (down to 50 ms), a re-anchor once a segment (250 ms).
     *
     * @return ns to sleep until the next of the two is due, or a negative value once the clock has
     *         fallen back
     */
    long anchorRound() {
        Segment s = current;
        if (s.isFallback()) {
            return -1;
        }
        long now = source.ticks();
        String distrust = checkTrust(now);
        if (distrust != null) {
            fallBack(distrust);
            return -1;
        }
        long untilReanchor = now < s.startTicks ? ticksToNanos(s.startTicks - now) + wakeAfterStart(s) : reanchor();
        if (untilReanchor < 0) {
            return -1;
        }
        long untilRecheck = ticksToNanos(lastTrustCheckTicks + recheckTicks - now);
        return Math.max(0, Math.min(untilReanchor, untilRecheck));
    }

    /**
     * Samples the TSC against CLOCK_MONOTONIC and publishes the next segment.
     *
     * @return ns to sleep before the next re-anchor, or a negative value once the clock has fallen back
     */
    private long reanchor() {
        long[] sample = new long[4];
        int rc = source.sample(sample);
        if (rc != 0 || sample[0] <= baseTicks || sample[1] <= baseNanos) {
            if (++sampleFailures >= 3) {
                fallBack("cannot sample the TSC against CLOCK_MONOTONIC (errno " + -rc + ")");
                return -1;
            }
            // Back again before the current segment ends, should it be a short one.
            long left = ticksToNanos(current.endTicks - source.ticks() - retryTicks());
            return Math.max(ticksToNanos(retryTicks()), Math.min(tuning.segmentNanos / 4, left));
        }
        sampleFailures = 0;
        realtimeOffsetNanos = sample[3] - sample[1];
        long baselineNanos = sample[1] - baseNanos;
        // Each sample's tick is its read window's middle, within half the window of the instant read.
        // Over CLOCK_MONOTONIC's baseline, not the ticks': a TSC that stalled would keep its own short.
        double windowsNanos = (baseWindowTicks + sample[2]) / 2.0 * calibratedNanosPerTick;
        double measurementUnsurePpm = windowsNanos / baselineNanos * 1e6;
        // Too short a baseline for these windows to judge the rate or to extend the clock at it: a longer
        // one shortly, while the current segment has time left (readers would extend it a whole segment).
        boolean unsure = measurementUnsurePpm > tuning.maxUnsurePpm;
        boolean waitForLongerBaseline = unsure && current.endTicks - sample[0] > segmentTicks / 20 + retryTicks();
        double nanosPerTick = (double) baselineNanos / (sample[0] - baseTicks);
        if (!waitForLongerBaseline) {
            double rateChangePpm = (nanosPerTick / calibratedNanosPerTick - 1) * 1e6;
            lastRateChangePpm = rateChangePpm;
            double unsurePpm = calibrationUncertaintyPpm + measurementUnsurePpm;
            if (Math.abs(rateChangePpm) > tuning.maxRateChangePpm + unsurePpm) {
                fallBack(String.format("the TSC rate moved %.0f ppm away from its calibration (allowed: %.0f ppm, of"
                        + " which %.0f for its samples' read windows, %.0f ns over %.1f ms since the calibration's)",
                        rateChangePpm, tuning.maxRateChangePpm + unsurePpm, unsurePpm, windowsNanos, baselineNanos / 1e6));
                return -1;
            }
        }
        String drift = null;
        synchronized (lock) {
            Segment s = current;
            if (s.isFallback()) {
                return -1;
            }
            long error = valueAt(s, sample[0]) - sample[1];
            lastErrorNanos = error;
            if (Math.abs(error) > Math.abs(worstErrorNanos)) {
                worstErrorNanos = error;
            }
            if (Math.abs(error) > tuning.maxErrorNanos) {
                drift = String.format("the TSC clock drifted %d us from CLOCK_MONOTONIC", error / 1000);
                fallBackLocked(drift); // logged below, outside the lock
            }
            if (drift == null) {
                if (waitForLongerBaseline) {
                    return ticksToNanos(retryTicks());
                }
                // Out of time to wait: a segment only as long as this rate is good for (the same distance
                // from CLOCK_MONOTONIC as a full one at maxUnsurePpm), ending past two retries at least.
                long length = !unsure ? segmentTicks : Math.max(2 * retryTicks(),
                        sample[0] + (long) (segmentTicks * tuning.maxUnsurePpm / measurementUnsurePpm) - s.endTicks);
                return publishNextSegment(s, sample, nanosPerTick, Math.min(segmentTicks, length));
            }
        }
        announceFallback(drift);
        return -1;
    }

    /** How soon a re-anchor whose baseline was too short tries again. */
    private long retryTicks() {
        return Math.max(1, segmentTicks / 50);
    }

    /** When, after a segment starts, the next is published: early enough for a short one too. */
    private long wakeAfterStart(Segment s) {
        return Math.min(tuning.segmentNanos / 20, ticksToNanos(s.endTicks - s.startTicks) / 5);
    }

    /**
     * Under the lock: the next segment, {@code length} ticks long, on course to meet CLOCK_MONOTONIC a full
     * segment after its start (a short one's slope corrects no faster than a full one's: readers that
     * extend it carry that slope on).
     */
    private long publishNextSegment(Segment s, long[] sample, double nanosPerTick, long length) {
        long start = s.endTicks;
        long startNanos = s.nanosAt(start);
        long aim = start + segmentTicks;
        // Aim to meet CLOCK_MONOTONIC (extrapolated at the long-baseline rate) there.
        double target = sample[1] + (aim - sample[0]) * nanosPerTick;
        double rate = (target - startNanos) / segmentTicks;
        double maxSlew = tuning.maxSlewPpm * 1e-6;
        rate = Math.max(nanosPerTick * (1 - maxSlew), Math.min(nanosPerTick * (1 + maxSlew), rate));
        Segment next = new Segment(start, start + length, startNanos, toMult(rate), s.detached());
        current = next;
        reanchors++;
        return Math.max(1_000_000L, ticksToNanos(start - source.ticks()) + wakeAfterStart(next));
    }

    private static long valueAt(Segment s, long t) {
        long nanos = evaluate(s, t);
        return nanos != MISS ? nanos : s.nanosAt(t);
    }

    private String checkTrust(long nowTicks) {
        if (ticksWentBackwards) {
            return "a TSC read went backwards";
        }
        if (nowTicks - lastTrustCheckTicks < recheckTicks) {
            return null;
        }
        lastTrustCheckTicks = nowTicks;
        try {
            return trust.untrustedReason();
        } catch (RuntimeException e) {
            return "the TSC re-check failed: " + e;
        }
    }

    /** Moves to the system clock for good, never below any value already handed out. */
    public void fallBack(String reason) {
        boolean now;
        synchronized (lock) {
            now = fallBackLocked(reason);
        }
        if (now) {
            announceFallback(reason);
        }
    }

    /**
     * Publishes the fallback segment; the caller logs outside the lock (readers may be waiting on
     * it, and stderr can block).
     *
     * @return false if the clock had already fallen back
     */
    private boolean fallBackLocked(String reason) {
        Segment s = current;
        if (s.isFallback()) {
            return false;
        }
        // First stop readers from handing out new F values: a reader that finds CLOSING, or finds
        // current changed after its tick read, waits on this lock. The fence drains the store of
        // CLOSING before the tick read below (rdtscp and lfence;rdtsc wait for earlier
        // instructions, the locked instruction among them), so every reader that can still hand
        // out an F value read its tick before this one (give or take IN_FLIGHT_MARGIN_NANOS).
        current = CLOSING;
        VarHandle.fullFence();
        long closingTicks = source.ticks();
        long floor;
        if (ticksWentBackwards || closingTicks < s.startTicks && evaluate(s, closingTicks) == MISS) {
            // Ticks are not in order, so readers may have seen any tick up to the end of the
            // segment: the floor can be up to a segment (250 ms) ahead of the system clock.
            floor = s.nanosAt(Math.max(s.endTicks, closingTicks));
        } else {
            floor = valueAt(s, closingTicks) + IN_FLIGHT_MARGIN_NANOS;
        }
        // The error at this moment: CLOCK_MONOTONIC read between two ticks, against F at their middle.
        long ticksBefore = source.ticks();
        long systemNanos = source.systemNanos();
        long ticksAfter = source.ticks();
        fallbackErrorNanos = valueAt(s, ticksBefore + (ticksAfter - ticksBefore) / 2) - systemNanos;
        fallbackReason = reason;
        current = new Segment(Long.MAX_VALUE, Long.MAX_VALUE, floor, 0, null);
        return true;
    }

    private void announceFallback(String reason) {
        log.warn("TSC clock disabled: " + reason + "; nanoTime and currentTimeMillis now use the system clocks");
        for (TscFallbackListener listener : fallbackListeners) {
            try {
                listener.fellBack(reason, fallbackErrorNanos);
            } catch (RuntimeException | LinkageError e) {
                log.warn("a TSC fallback listener failed: " + e);
            }
        }
    }

    /**
     * Adds a listener told about the fallback (once). One added after the clock fell back is never
     * told: callers check {@link #hasFallenBack()} after adding.
     */
    public void addFallbackListener(TscFallbackListener listener) {
        synchronized (lock) {
            TscFallbackListener[] old = fallbackListeners;
            TscFallbackListener[] grown = Arrays.copyOf(old, old.length + 1);
            grown[old.length] = listener;
            fallbackListeners = grown;
        }
    }

    /** Rounded up, so that a sleep of that long is never a tick short of a deadline. */
    private long ticksToNanos(long ticks) {
        return (long) Math.ceil(ticks * calibratedNanosPerTick);
    }

    private static long toMult(double nanosPerTick) {
        return Math.round(nanosPerTick * ONE);
    }

    // ---- what the doctor and tests look at ------------------------------------------------------

    public String fallbackReason() {
        return fallbackReason;
    }

    /** The clock's value minus CLOCK_MONOTONIC when it fell back (positive: it was ahead), 0 before. */
    public long fallbackErrorNanos() {
        return fallbackErrorNanos;
    }

    public boolean hasFallenBack() {
        return fallbackReason != null;
    }

    public double calibratedNanosPerTick() {
        return calibratedNanosPerTick;
    }

    public long lastErrorNanos() {
        return lastErrorNanos;
    }

    public long worstErrorNanos() {
        return worstErrorNanos;
    }

    public double lastRateChangePpm() {
        return lastRateChangePpm;
    }

    public long reanchors() {
        return reanchors;
    }

    public long lateExtensions() {
        return lateExtensions;
    }

    public long realtimeOffsetNanos() {
        return realtimeOffsetNanos;
    }
}
