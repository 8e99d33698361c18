package io.fastclock.probe;

/**
 * What the clocks cost on this machine, in ns per call ({@link Double#NaN} when not measured;
 * negative or infinite values are taken as not measured), the resolution of the coarse clock (-1
 * when unknown; zero or negative values are taken as unknown) and how far the coarse clock was
 * measured behind CLOCK_REALTIME. Immutable; build with {@link #builder()}.
 *
 * <p>Two ways of timing: the system clocks' cost timed in C ({@link #realtimeNs()}, {@link #monotonicNs()})
 * decides whether they are slow (the threshold); every cost that {@code auto} compares (the
 * candidates, and the system clocks' {@link #compiledRealtimeNs()} and {@link #compiledMonotonicNs()})
 * is what JIT-compiled Java pays, JNI transition included.
 */
public final class Measurements {
    private final double realtimeNs;
    private final double monotonicNs;
    private final double realtimeCoarseNs;
    private final double monotonicCoarseNs;
    private final double tscNs;
    private final double tscMillisNs;
    private final double jnaCoarseNs;
    private final long coarseResolutionNs;
    private final double compiledRealtimeNs;
    private final double compiledMonotonicNs;
    private final long coarseLagNs;

    /** {@link #coarseLagNs()} when the coarse clock's lag was not measured. */
    public static final long UNKNOWN_LAG = Long.MIN_VALUE;

    /**
     * @param realtimeNs          what System.currentTimeMillis costs (CLOCK_REALTIME), timed in C
     * @param monotonicNs         what System.nanoTime costs (CLOCK_MONOTONIC), timed in C
     * @param realtimeCoarseNs    CLOCK_REALTIME_COARSE through JNI, from compiled Java
     * @param monotonicCoarseNs   CLOCK_MONOTONIC_COARSE through JNI, from compiled Java
     * @param tscNs               one ordered TSC read through JNI, from compiled Java (nanoTime's)
     * @param jnaCoarseNs         CLOCK_REALTIME_COARSE through JNA, timed in Java
     * @param coarseResolutionNs  clock_getres of CLOCK_REALTIME_COARSE, or -1 if unknown
     * @param compiledRealtimeNs  System.currentTimeMillis from compiled Java
     * @param compiledMonotonicNs System.nanoTime from compiled Java
     * @param coarseLagNs         the worst the coarse clock was measured behind CLOCK_REALTIME at start
     *                            (MillisLagMeter's "behind"), or {@link #UNKNOWN_LAG}
     */
    public Measurements(double realtimeNs, double monotonicNs, double realtimeCoarseNs, double monotonicCoarseNs,
                        double tscNs, double jnaCoarseNs, long coarseResolutionNs, double compiledRealtimeNs,
                        double compiledMonotonicNs, long coarseLagNs) {
        this(realtimeNs, monotonicNs, realtimeCoarseNs, monotonicCoarseNs, tscNs, Double.NaN, jnaCoarseNs, coarseResolutionNs,
                compiledRealtimeNs, compiledMonotonicNs, coarseLagNs);
    }

    /** @param tscMillisNs the TSC read currentTimeMillis uses (a plain rdtsc) through JNI, from compiled Java */
    private Measurements(double realtimeNs, double monotonicNs, double realtimeCoarseNs, double monotonicCoarseNs,
            double tscNs, double tscMillisNs, double jnaCoarseNs, long coarseResolutionNs,
            double compiledRealtimeNs, double compiledMonotonicNs, long coarseLagNs) {
        this.tscMillisNs = clean(tscMillisNs);
        this.compiledRealtimeNs = clean(compiledRealtimeNs);
        this.compiledMonotonicNs = clean(compiledMonotonicNs);
        this.coarseLagNs = coarseLagNs;
        this.realtimeNs = clean(realtimeNs);
        this.monotonicNs = clean(monotonicNs);
        this.realtimeCoarseNs = clean(realtimeCoarseNs);
        this.monotonicCoarseNs = clean(monotonicCoarseNs);
        this.tscNs = clean(tscNs);
        this.jnaCoarseNs = clean(jnaCoarseNs);
        this.coarseResolutionNs = coarseResolutionNs <= 0 ? -1 : coarseResolutionNs;
    }

    /** A negative or infinite cost (a failed measurement) counts as not measured. */
    private static double clean(double ns) {
        return Double.isInfinite(ns) || ns < 0 ? Double.NaN : ns;
    }

    /** Nothing measured. */
    public static Measurements none() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    public double realtimeNs() {
        return realtimeNs;
    }

    public double monotonicNs() {
        return monotonicNs;
    }

    public double realtimeCoarseNs() {
        return realtimeCoarseNs;
    }

    public double monotonicCoarseNs() {
        return monotonicCoarseNs;
    }

    /** The ordered TSC read nanoTime uses, through JNI. */
    public double tscNs() {
        return tscNs;
    }

    /**
     * The TSC read currentTimeMillis uses, through JNI; where it was not timed, the ordered read's
     * cost, which it never exceeds.
     */
    public double tscMillisNs() {
        return Double.isNaN(tscMillisNs) ? tscNs : tscMillisNs;
    }

    public double jnaCoarseNs() {
        return jnaCoarseNs;
    }

    /** System.currentTimeMillis as JIT-compiled Java pays it. */
    public double compiledRealtimeNs() {
        return compiledRealtimeNs;
    }

    /** System.nanoTime as JIT-compiled Java pays it. */
    public double compiledMonotonicNs() {
        return compiledMonotonicNs;
    }

    /** The worst the coarse clock was measured behind CLOCK_REALTIME at start-up, or {@link #UNKNOWN_LAG}. */
    public long coarseLagNs() {
        return coarseLagNs;
    }

    /** A copy with the coarse lag replaced (the doctor, after its longer measurement). */
    public Measurements withCoarseLagNs(long lagNs) {
        return new Measurements(realtimeNs, monotonicNs, realtimeCoarseNs, monotonicCoarseNs, tscNs, tscMillisNs, jnaCoarseNs,
                coarseResolutionNs, compiledRealtimeNs, compiledMonotonicNs, lagNs);
    }

    /** clock_getres of CLOCK_REALTIME_COARSE in ns, or -1 if unknown. */
    public long coarseResolutionNs() {
        return coarseResolutionNs;
    }

    @Override
    public String toString() {
        return "Measurements{realtime=" + realtimeNs + ", monotonic=" + monotonicNs + ", realtimeCoarse="
                + realtimeCoarseNs + ", monotonicCoarse=" + monotonicCoarseNs + ", tsc=" + tscNs + ", tscMillis=" + tscMillisNs + ", jnaCoarse="
                + jnaCoarseNs + ", coarseResolutionNs=" + coarseResolutionNs + ", compiledRealtime=" + compiledRealtimeNs
                + ", compiledMonotonic=" + compiledMonotonicNs + ", coarseLagNs=" + coarseLagNs + "}";
    }

    public static final class Builder {
        private double realtimeNs = Double.NaN;
        private double monotonicNs = Double.NaN;
        private double realtimeCoarseNs = Double.NaN;
        private double monotonicCoarseNs = Double.NaN;
        private double tscNs = Double.NaN;
        private double tscMillisNs = Double.NaN;
        private double jnaCoarseNs = Double.NaN;
        private long coarseResolutionNs = -1;
        private double compiledRealtimeNs = Double.NaN;
        private double compiledMonotonicNs = Double.NaN;
        private long coarseLagNs = UNKNOWN_LAG;

        private Builder() {}

        public Builder compiledRealtimeNs(double v) {
            compiledRealtimeNs = v;
            return this;
        }

        public Builder compiledMonotonicNs(double v) {
            compiledMonotonicNs = v;
            return this;
        }

        public Builder coarseLagNs(long v) {
            coarseLagNs = v;
            return this;
        }

        public Builder realtimeNs(double v) {
            realtimeNs = v;
            return this;
        }

        public Builder monotonicNs(double v) {
            monotonicNs = v;
            return this;
        }

        public Builder realtimeCoarseNs(double v) {
            realtimeCoarseNs = v;
            return this;
        }

        public Builder monotonicCoarseNs(double v) {
            monotonicCoarseNs = v;
            return this;
        }

        public Builder tscNs(double v) {
            tscNs = v;
            return this;
        }

        public Builder tscMillisNs(double v) {
            tscMillisNs = v;
            return this;
        }

        public Builder jnaCoarseNs(double v) {
            jnaCoarseNs = v;
            return this;
        }

        public Builder coarseResolutionNs(long v) {
            coarseResolutionNs = v;
            return this;
        }

        public Measurements build() {
            return new Measurements(realtimeNs, monotonicNs, realtimeCoarseNs, monotonicCoarseNs, tscNs, tscMillisNs,
                    jnaCoarseNs, coarseResolutionNs, compiledRealtimeNs, compiledMonotonicNs, coarseLagNs);
        }
    }
}
