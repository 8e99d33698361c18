package io.fastclock.clock;

import java.util.concurrent.locks.LockSupport;

/**
 * Measures the tick rate against CLOCK_MONOTONIC: three narrow-window samples a short interval
 * apart; the two halves must agree (within what their read windows explain, plus a margin) for
 * the calibration to count as converged.
 */
public final class TscCalibration {
    /** Agreement required between the halves beyond what the read windows explain. */
    static final double BASE_TOLERANCE = 100e-6;
    static final int ATTEMPTS = 3;

    public final boolean converged;
    public final String problem;
    /** ns per tick over the whole calibration. */
    public final double nanosPerTick;
    /** The last sample: the anchor the clock starts from. */
    public final long anchorTicks;
    public final long anchorNanos;
    public final long realtimeOffsetNanos;
    /** The anchor sample's read window in ticks: its tick is the window's middle, within half of it. */
    public final long anchorWindowTicks;
    /**
     * How far, in ppm, {@link #nanosPerTick} may be from the true rate for the read windows alone:
     * each end's tick is uncertain by half its window.
     */
    public final double rateUncertaintyPpm;
    /** Disagreement between the halves, in ppm, of the last attempt. */
    public final double disagreementPpm;
    public final long elapsedNanos;

    /**
     * @param first  the first sample, {ticks, CLOCK_MONOTONIC ns, window in ticks, CLOCK_REALTIME ns}, or null
     * @param anchor the last sample, the same four, or null
     */
    TscCalibration(boolean converged, String problem, double nanosPerTick, long[] first, long[] anchor,
            double disagreementPpm, long elapsedNanos) {
        this.converged = converged;
        this.problem = problem;
        this.nanosPerTick = nanosPerTick;
        this.anchorTicks = anchor == null ? 0 : anchor[0];
        this.anchorNanos = anchor == null ? 0 : anchor[1];
        this.anchorWindowTicks = anchor == null ? 0 : anchor[2];
        this.realtimeOffsetNanos = anchor == null ? 0 : anchor[3] - anchor[1];
        this.rateUncertaintyPpm = first == null || anchor == null || anchor[0] <= first[0] ? 0
                : (first[2] + anchor[2]) / 2.0 / (anchor[0] - first[0]) * 1e6;
        this.disagreementPpm = disagreementPpm;
        this.elapsedNanos = elapsedNanos;
    }

    /** @param halfNanos length of each half of the calibration */
    public static TscCalibration run(TickSource source, long halfNanos) {
        long started = System.nanoTime();
        String problem = "not run";
        double disagreement = Double.NaN;
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            long[] a = new long[4];
            long[] b = new long[4];
            long[] c = new long[4];
            int rc = source.sample(a);
            if (rc == 0) {
                pause(halfNanos);
                rc = source.sample(b);
            }
            if (rc == 0) {
                pause(halfNanos);
                rc = source.sample(c);
            }
            if (rc != 0) {
                return new TscCalibration(false, "cannot sample the TSC (errno " + -rc + ")", Double.NaN, null, null,
                        Double.NaN, System.nanoTime() - started);
            }
            if (b[0] <= a[0] || c[0] <= b[0] || b[1] <= a[1] || c[1] <= b[1]) {
                problem = "the TSC or CLOCK_MONOTONIC did not advance between samples";
                continue;
            }
            double first = (double) (b[1] - a[1]) / (b[0] - a[0]);
            double second = (double) (c[1] - b[1]) / (c[0] - b[0]);
            double whole = (double) (c[1] - a[1]) / (c[0] - a[0]);
            // A sample's position is uncertain by half its window (in ns: window * rate).
            double windowNs = (a[2] + 2.0 * b[2] + c[2]) * whole;
            double tolerance = BASE_TOLERANCE + windowNs / Math.min(b[1] - a[1], c[1] - b[1]);
            disagreement = Math.abs(first / second - 1) * 1e6;
            if (disagreement <= tolerance * 1e6) {
                return new TscCalibration(true, null, whole, a, c, disagreement, System.nanoTime() - started);
            }
            problem = String.format("calibration did not converge: the two halves differ by %.0f ppm (allowed %.0f ppm)",
                    disagreement, tolerance * 1e6);
        }
        return new TscCalibration(false, problem, Double.NaN, null, null, disagreement, System.nanoTime() - started);
    }

    /**
     * Sleeps on the caller's thread (the application's, in premain or agentmain). An interrupt does
     * not cut the pause short, which would make it a busy wait, and is not lost either: the flag is
     * cleared while it waits and set again before it returns.
     */
    private static void pause(long nanos) {
        long deadline = System.nanoTime() + nanos;
        long left;
        boolean interrupted = false;
        while ((left = deadline - System.nanoTime()) > 0) {
            LockSupport.parkNanos(left);
            interrupted |= Thread.interrupted();
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
