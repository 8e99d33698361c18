package io.fastclock.probe;

/**
 * What the clocks cost on this machine, in ns per call as measured in C ({@link Double#NaN} when
 * not measured; negative or infinite values are taken as not measured), and the resolution of the
 * coarse clock (-1 when unknown; zero or negative values are taken as unknown). Immutable; build with {@link #builder()}.
 */
public final class Measurements {
    private final double realtimeNs;
    private final double monotonicNs;
    private final double realtimeCoarseNs;
    private final double monotonicCoarseNs;
    private final double tscNs;
    private final double jnaCoarseNs;
    private final long coarseResolutionNs;

    /**
     * @param realtimeNs         what System.currentTimeMillis costs (CLOCK_REALTIME)
     * @param monotonicNs        what System.nanoTime costs (CLOCK_MONOTONIC)
     * @param realtimeCoarseNs   CLOCK_REALTIME_COARSE through JNI
     * @param monotonicCoarseNs  CLOCK_MONOTONIC_COARSE through JNI
     * @param tscNs              one ordered TSC read through the runtime
     * @param jnaCoarseNs        CLOCK_REALTIME_COARSE through JNA
     * @param coarseResolutionNs clock_getres of CLOCK_REALTIME_COARSE, or -1 if unknown
     */
    public Measurements(double realtimeNs, double monotonicNs, double realtimeCoarseNs, double monotonicCoarseNs,
                        double tscNs, double jnaCoarseNs, long coarseResolutionNs) {
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

    public double tscNs() {
        return tscNs;
    }

    public double jnaCoarseNs() {
        return jnaCoarseNs;
    }

    /** clock_getres of CLOCK_REALTIME_COARSE in ns, or -1 if unknown. */
    public long coarseResolutionNs() {
        return coarseResolutionNs;
    }

    @Override
    public String toString() {
        return "Measurements{realtime=" + realtimeNs + ", monotonic=" + monotonicNs + ", realtimeCoarse="
                + realtimeCoarseNs + ", monotonicCoarse=" + monotonicCoarseNs + ", tsc=" + tscNs + ", jnaCoarse="
                + jnaCoarseNs + ", coarseResolutionNs=" + coarseResolutionNs + "}";
    }

    public static final class Builder {
        private double realtimeNs = Double.NaN;
        private double monotonicNs = Double.NaN;
        private double realtimeCoarseNs = Double.NaN;
        private double monotonicCoarseNs = Double.NaN;
        private double tscNs = Double.NaN;
        private double jnaCoarseNs = Double.NaN;
        private long coarseResolutionNs = -1;

        private Builder() {}

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

        public Builder jnaCoarseNs(double v) {
            jnaCoarseNs = v;
            return this;
        }

        public Builder coarseResolutionNs(long v) {
            coarseResolutionNs = v;
            return this;
        }

        public Measurements build() {
            return new Measurements(realtimeNs, monotonicNs, realtimeCoarseNs, monotonicCoarseNs, tscNs,
                    jnaCoarseNs, coarseResolutionNs);
        }
    }
}
