package io.fastclock.examples;

import java.util.List;

/**
 * Use case 4 of the article: time-stamping a stream of real-world events (orders, deals) with
 * System.currentTimeMillis into a ring buffer. The stamp comes through a lambda, as in code that
 * takes its clock as a functional interface.
 */
final class EventStampWorkload implements Workload {

    private static final int RING = 4096;
    private static final int BATCH = 100;

    /** Where event stamps come from. */
    @FunctionalInterface
    interface Stamper {
        long stamp();
    }

    @Override
    public String name() {
        return "event stamps";
    }

    @Override
    public String operation() {
        return "stamp an event with currentTimeMillis (lambda), store it in a ring buffer";
    }

    @Override
    public Worker newWorker() {
        return new Ring(() -> System.currentTimeMillis());
    }

    @Override
    public String detail(List<Worker> workers) {
        return "stamps earlier than the previous one: " + backwards(workers);
    }

    @Override
    public long backwards(List<Worker> workers) {
        long backwards = 0;
        for (Worker w : workers) {
            backwards += ((Ring) w).backwards;
        }
        return backwards;
    }

    static final class Ring implements Worker {
        private final Stamper stamper;
        private final long[] ids = new long[RING];
        private final long[] stamps = new long[RING];
        private long sequence;
        private long last;
        private long backwards;

        Ring(Stamper stamper) {
            this.stamper = stamper;
        }

        @Override
        public void runBatch() {
            for (int i = 0; i < BATCH; i++) {
                long id = sequence++;
                long stamp = stamper.stamp();
                int slot = (int) (id & (RING - 1));
                ids[slot] = id;
                stamps[slot] = stamp;
                if (stamp < last) {
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
            int slot = (int) ((sequence - 1) & (RING - 1));
            return ids[slot] + stamps[slot];
        }
    }
}
