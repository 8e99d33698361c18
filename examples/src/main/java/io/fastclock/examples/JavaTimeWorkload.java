package io.fastclock.examples;

import java.time.Instant;
import java.time.LocalDateTime;
import java.util.List;
import java.util.function.Supplier;

/**
 * Stamping events through java.time, as code written since Java 8 does: Instant.now() or
 * LocalDateTime.now() per event, kept in a ring buffer. The JDK reads the clock inside java.time,
 * so only an agent that covers the JDK's system clock can make these cheaper.
 *
 * @param <T> the stamp type
 */
final class JavaTimeWorkload<T extends Comparable<? super T>> implements Workload {

    private static final int RING = 4096;
    private static final int BATCH = 100;

    private final String call;
    private final Supplier<T> clock;

    private JavaTimeWorkload(String call, Supplier<T> clock) {
        this.call = call;
        this.clock = clock;
    }

    static JavaTimeWorkload<Instant> instant() {
        return new JavaTimeWorkload<>("Instant.now()", () -> Instant.now());
    }

    static JavaTimeWorkload<LocalDateTime> localDateTime() {
        return new JavaTimeWorkload<>("LocalDateTime.now()", () -> LocalDateTime.now());
    }

    @Override
    public String name() {
        return call;
    }

    @Override
    public String operation() {
        return "stamp an event with " + call + ", store it in a ring buffer";
    }

    @Override
    public Worker newWorker() {
        return new Ring<>(clock);
    }

    @Override
    public String detail(List<Worker> workers) {
        return "stamps earlier than the previous one: " + backwards(workers);
    }

    @Override
    public long backwards(List<Worker> workers) {
        long backwards = 0;
        for (Worker w : workers) {
            backwards += ((Ring<?>) w).backwards;
        }
        return backwards;
    }

    static final class Ring<T extends Comparable<? super T>> implements Worker {
        private final Supplier<T> clock;
        private final Object[] stamps = new Object[RING];
        private long sequence;
        private T last;
        private long backwards;

        Ring(Supplier<T> clock) {
            this.clock = clock;
        }

        @Override
        public void runBatch() {
            for (int i = 0; i < BATCH; i++) {
                T stamp = clock.get();
                stamps[(int) (sequence++ & (RING - 1))] = stamp;
                if (last != null && stamp.compareTo(last) < 0) {
                    backwards++;
                }
                last = stamp;
            }
        }

        @Override
        public int batchSize() {
            return BATCH;
        }

        @Override
        public long sink() {
            return sequence + (last == null ? 0 : last.hashCode());
        }
    }
}
