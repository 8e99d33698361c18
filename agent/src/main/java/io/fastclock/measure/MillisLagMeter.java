package io.fastclock.measure;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * How far currentTimeMillis backends stray from a nanosecond CLOCK_REALTIME reference: the measured
 * side of the contract's "[reference - L, reference + 1 ms], where L is the lag the backend states
 * and the doctor measures".
 *
 * <p>Every backend read is bracketed by two reference reads, and the backends take turns in one loop
 * so that they see the same stretch of time. A millis value {@code b} stands for the millisecond
 * {@code [b, b + 1)}: a clock that truncates exactly is neither behind nor ahead. So, per read:
 * <ul>
 *   <li>behind = reference before the read − the last ns of millisecond {@code b}
 *       ({@code b * 1e6 + 999 999}): how far the reference had already passed the millisecond the backend
 *       returned. The contract holds when this is at most L; with millisecond references that is
 *       exactly the integer check {@code floor(reference / 1 ms) - b <= L}.</li>
 *   <li>ahead = the first ns of millisecond {@code b} − reference after the read: how far the backend's
 *       millisecond began after the reference. The contract bounds it by 1 ms.</li>
 * </ul>
 * Both are lower bounds of the true deviation at the instant of the read: the read happened after the
 * first reference and before the second, so a thread descheduled anywhere in the bracket can only make
 * them smaller, never larger. A worst value over the bound is therefore a real breach of the contract,
 * not noise. Values at or below 0 mean "never".
 *
 * <p>Pure: clocks come in as suppliers, so the arithmetic is testable with made-up clocks.
 */
public final class MillisLagMeter {
    /** The contract's bound on how far ahead of the reference a millis read may be. */
    public static final long AHEAD_BOUND_NS = 1_000_000L;

    private static final long NANOS_PER_MILLI = 1_000_000L;

    private MillisLagMeter() {}

    /** The worst deviations seen for one backend. */
    public static final class Result {
        public final String backend;
        /** Reads taken with a valid reference around them. */
        public final long reads;
        /** Worst (reference before − end of the backend's millisecond), ns; Long.MIN_VALUE if no reads. */
        public final long worstBehindNs;
        /** Worst (start of the backend's millisecond − reference after), ns; Long.MIN_VALUE if no reads. */
        public final long worstAheadNs;

        Result(String backend, long reads, long worstBehindNs, long worstAheadNs) {
            this.backend = backend;
            this.reads = reads;
            this.worstBehindNs = worstBehindNs;
            this.worstAheadNs = worstAheadNs;
        }

        /**
         * Whether the reads kept the contract: behind at most statedLagNs and ahead at most 1 ms. False
         * when there were no reads or the lag is not stated (negative).
         */
        public boolean within(long statedLagNs) {
            return reads > 0 && statedLagNs >= 0 && worstBehindNs <= statedLagNs && worstAheadNs <= AHEAD_BOUND_NS;
        }

        @Override
        public String toString() {
            return backend + ": reads=" + reads + ", worstBehindNs=" + worstBehindNs + ", worstAheadNs=" + worstAheadNs;
        }
    }

    /**
     * Reads every backend in turn, each between two reads of the reference, until durationNanos of the
     * monotonic clock have passed (and at least once).
     *
     * @param backends       name -> epoch millis clock
     * @param referenceNanos CLOCK_REALTIME in epoch ns; a negative value (a failed read) drops that sample
     * @param monotonicNanos what bounds the loop (System::nanoTime)
     * @return one result per backend, in the order given
     */
    public static List<Result> measure(Map<String, LongSupplier> backends, LongSupplier referenceNanos,
            LongSupplier monotonicNanos, long durationNanos) {
        int n = backends.size();
        String[] names = backends.keySet().toArray(new String[0]);
        LongSupplier[] clocks = new ArrayList<>(backends.values()).toArray(new LongSupplier[0]);
        long[] reads = new long[n];
        long[] behind = new long[n];
        long[] ahead = new long[n];
        Arrays.fill(behind, Long.MIN_VALUE);
        Arrays.fill(ahead, Long.MIN_VALUE);
        long end = monotonicNanos.getAsLong() + durationNanos;
        do {
            for (int i = 0; i < n; i++) {
                long before = referenceNanos.getAsLong();
                long millis = clocks[i].getAsLong();
                long after = referenceNanos.getAsLong();
                if (before < 0 || after < 0) {
                    continue;
                }
                behind[i] = Math.max(behind[i], behindNs(before, millis));
                ahead[i] = Math.max(ahead[i], aheadNs(millis, after));
                reads[i]++;
            }
        } while (monotonicNanos.getAsLong() - end < 0);
        List<Result> results = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            results.add(new Result(names[i], reads[i], behind[i], ahead[i]));
        }
        return Collections.unmodifiableList(results);
    }

    /** Reference before the read − the last ns of millisecond {@code millis}. */
    public static long behindNs(long referenceBeforeNs, long millis) {
        return referenceBeforeNs - (millis * NANOS_PER_MILLI + NANOS_PER_MILLI - 1);
    }

    /** First ns of millisecond {@code millis} − reference after the read. */
    static long aheadNs(long millis, long referenceAfterNs) {
        return millis * NANOS_PER_MILLI - referenceAfterNs;
    }
}
