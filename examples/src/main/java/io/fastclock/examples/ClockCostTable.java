package io.fastclock.examples;

import java.util.ArrayList;
import java.util.List;

/**
 * Table 1 of the article: what one call of System.currentTimeMillis() and System.nanoTime()
 * costs with 1..N threads calling it at once. Each thread loops calling the clock and summing the
 * results (the article's Time.java loop); the table shows the average time per call seen by a
 * thread and the calls per second of all threads together.
 */
final class ClockCostTable {

    private static final int BATCH = 1000;

    /** One row: a thread count and what each clock did with it. */
    static final class Row {
        final int threads;
        final ParallelRunner.Result millis;
        final ParallelRunner.Result nanos;

        Row(int threads, ParallelRunner.Result millis, ParallelRunner.Result nanos) {
            this.threads = threads;
            this.millis = millis;
            this.nanos = nanos;
        }
    }

    /** The article's loop for currentTimeMillis: {@code sum += System.currentTimeMillis()}. */
    static final class MillisLoop implements Worker {
        private long sum;

        @Override
        public void runBatch() {
            long s = sum;
            for (int i = 0; i < BATCH; i++) {
                s += System.currentTimeMillis();
            }
            sum = s;
        }

        @Override
        public int batchSize() {
            return BATCH;
        }

        @Override
        public long sink() {
            return sum;
        }
    }

    /** The same loop for nanoTime. */
    static final class NanoLoop implements Worker {
        private long sum;

        @Override
        public void runBatch() {
            long s = sum;
            for (int i = 0; i < BATCH; i++) {
                s += System.nanoTime();
            }
            sum = s;
        }

        @Override
        public int batchSize() {
            return BATCH;
        }

        @Override
        public long sink() {
            return sum;
        }
    }

    static List<Row> measure(DemoOptions options) {
        List<Row> rows = new ArrayList<>();
        for (int threads = 1; threads <= options.maxThreads; threads++) {
            ParallelRunner.Result millis =
                    ParallelRunner.run(threads, options.warmupSeconds(), options.seconds, t -> new MillisLoop());
            ParallelRunner.Result nanos =
                    ParallelRunner.run(threads, options.warmupSeconds(), options.seconds, t -> new NanoLoop());
            rows.add(new Row(threads, millis, nanos));
        }
        return rows;
    }

    static String format(List<Row> rows) {
        Report.Table table = new Report.Table(
                "threads", "currentTimeMillis ns/call", "calls/s (all threads)",
                "nanoTime ns/call", "calls/s (all threads)");
        for (Row row : rows) {
            table.row(Integer.toString(row.threads),
                    Report.nanos(row.millis.nanosPerOp()), Report.rate(row.millis.opsPerSecond()),
                    Report.nanos(row.nanos.nanosPerOp()), Report.rate(row.nanos.opsPerSecond()));
        }
        return table.toString();
    }
}
