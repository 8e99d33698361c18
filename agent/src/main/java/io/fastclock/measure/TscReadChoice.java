package io.fastclock.measure;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import io.fastclock.clock.NativeClocks;

/**
 * Which TSC read the clock uses on this machine: for nanoTime the cheapest of the ordered reads
 * this CPU documents as ordered, timed here in C; for currentTimeMillis a plain, unordered rdtsc.
 * Batches of the candidates are interleaved, so a noisy neighbour hurts them alike; the best batch
 * of each counts.
 */
public final class TscReadChoice {
    static final int BATCHES = 7;
    static final long CALLS_PER_BATCH = 400;

    public final TscRead nanos;
    public final TscRead millis;
    /** ns per read in C, best batch, for every read timed (ordered candidates and the unordered one). */
    public final Map<TscRead, Double> costNanos;
    /** Reads this CPU does not document as ordered, each with why (none when all are offered). */
    public final Map<TscRead, String> notOffered;

    TscReadChoice(TscRead nanos, TscRead millis, Map<TscRead, Double> costNanos, Map<TscRead, String> notOffered) {
        this.nanos = nanos;
        this.millis = millis;
        this.costNanos = Collections.unmodifiableMap(costNanos);
        this.notOffered = Collections.unmodifiableMap(notOffered);
    }

    /** The ordered reads this CPU documents, in order of preference when their costs tie. */
    public static List<TscRead> orderedCandidates(int cpuidFlags) {
        List<TscRead> out = new ArrayList<>();
        for (TscRead r : TscRead.values()) {
            if (r.ordered && r.orderedBecause(cpuidFlags) != null) {
                out.add(r);
            }
        }
        if (out.isEmpty()) {
            // No rdtscp and an unknown vendor: what the agent has always used there.
            out.add(TscRead.LFENCE_RDTSC);
        }
        return out;
    }

    /** The cheapest candidate; the first listed wins a tie. */
    static TscRead cheapest(List<TscRead> candidates, Map<TscRead, Double> costs) {
        TscRead best = candidates.get(0);
        for (TscRead r : candidates) {
            Double c = costs.get(r);
            Double b = costs.get(best);
            if (c != null && !c.isNaN() && (b == null || b.isNaN() || c < b)) {
                best = r;
            }
        }
        return best;
    }

    public static TscReadChoice measure() {
        int flags = NativeClocks.tscFlags();
        List<TscRead> candidates = orderedCandidates(flags);
        List<TscRead> timed = new ArrayList<>(candidates);
        timed.add(TscRead.RDTSC);
        Map<TscRead, Double> costs = new EnumMap<>(TscRead.class);
        for (int b = 0; b < BATCHES; b++) {
            for (TscRead r : timed) {
                long total = NativeClocks.timeCalls(r.pseudoClockId, CALLS_PER_BATCH);
                double perCall = total < 0 ? Double.NaN : (double) total / CALLS_PER_BATCH;
                Double best = costs.get(r);
                if (best == null || best.isNaN() || perCall < best) {
                    costs.put(r, perCall);
                }
            }
        }
        Map<TscRead, String> notOffered = new EnumMap<>(TscRead.class);
        for (TscRead r : TscRead.values()) {
            if (r.ordered && !candidates.contains(r)) {
                notOffered.put(r, whyNot(r, flags));
            }
        }
        return new TscReadChoice(cheapest(candidates, costs), TscRead.RDTSC, costs, notOffered);
    }

    static String whyNot(TscRead r, int cpuidFlags) {
        if (r == TscRead.RDTSCP) {
            return "CPUID does not offer it";
        }
        if (r == TscRead.LFENCE_RDTSC) {
            return (cpuidFlags & NativeClocks.CPU_AMD) != 0
                    ? "AMD without CPUID 8000_0021 EAX[2] (MSR C001_1029[1] is not readable from user space)"
                    : "not documented as ordered on this CPU vendor";
        }
        if (r == TscRead.MFENCE_RDTSC) {
            return "documented for AMD only";
        }
        return "unordered";
    }

    /** ns per read in C, or NaN if not timed. */
    public double cost(TscRead r) {
        Double c = costNanos.get(r);
        return c == null ? Double.NaN : c;
    }
}
