package io.fastclock.examples;

import java.util.concurrent.CyclicBarrier;
import java.util.function.IntFunction;

/**
 * Runs a {@link Worker} per thread: all threads start together, warm up, then count the
 * operations they finish while measuring. Each thread times its own measured span.
 */
final class ParallelRunner {

    /** Sum of every worker's sink; volatile so the work it depends on stays. */
    static volatile long blackhole;

    private static final int WARMUP = 0;
    private static final int MEASURE = 1;
    private static final int STOP = 2;

    private volatile int phase;

    /** Per-thread operation counts and measured spans. */
    static final class Result {
        final int threads;
        final long[] ops;
        final long[] nanos;

        Result(int threads) {
            this.threads = threads;
            this.ops = new long[threads];
            this.nanos = new long[threads];
        }

        /** Average time one thread spent per operation, in ns; NaN when a thread finished none (no figure). */
        double nanosPerOp() {
            double sum = 0;
            for (int i = 0; i < threads; i++) {
                if (ops[i] == 0) {
                    return Double.NaN;
                }
                sum += (double) nanos[i] / ops[i];
            }
            return sum / threads;
        }

        /** Operations per second, summed over all threads. */
        double opsPerSecond() {
            double sum = 0;
            for (int i = 0; i < threads; i++) {
                sum += nanos[i] == 0 ? 0 : ops[i] * 1e9 / nanos[i];
            }
            return sum;
        }
    }

    static Result run(int threads, double warmupSeconds, double seconds, IntFunction<Worker> workers) {
        return new ParallelRunner().execute(threads, warmupSeconds, seconds, workers);
    }

    private Result execute(int threads, double warmupSeconds, double seconds, IntFunction<Worker> workers) {
        Result result = new Result(threads);
        CyclicBarrier start = new CyclicBarrier(threads + 1);
        Thread[] pool = new Thread[threads];
        long[] sinks = new long[threads];
        phase = warmupSeconds > 0 ? WARMUP : MEASURE;
        for (int t = 0; t < threads; t++) {
            final int index = t;
            pool[t] = new Thread(() -> {
                // Created in its own thread, so its state sits in this thread's allocation buffer and
                // never shares a cache line with another thread's worker.
                Worker worker = workers.apply(index);
                await(start);
                while (phase == WARMUP) {
                    worker.runBatch();
                }
                long ops = 0;
                long t0 = System.nanoTime();
                while (phase == MEASURE) {
                    worker.runBatch();
                    ops += worker.batchSize();
                }
                long t1 = System.nanoTime();
                result.ops[index] = ops;
                result.nanos[index] = t1 - t0;
                sinks[index] = worker.sink();
            }, "demo-worker-" + t);
            pool[t].setDaemon(true);
            pool[t].start();
        }
        await(start);
        if (warmupSeconds > 0) {
            sleep(warmupSeconds);
            phase = MEASURE;
        }
        sleep(seconds);
        phase = STOP;
        long sum = 0;
        for (int t = 0; t < threads; t++) {
            join(pool[t]);
            sum += sinks[t];
        }
        blackhole += sum;
        return result;
    }

    private static void await(CyclicBarrier barrier) {
        try {
            barrier.await();
        } catch (Exception e) {
            throw new IllegalStateException("demo threads could not start together", e);
        }
    }

    private static void sleep(double seconds) {
        try {
            Thread.sleep(Math.max(1, Math.round(seconds * 1000)));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static void join(Thread t) {
        try {
            t.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
