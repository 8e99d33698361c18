package io.fastclock.examples;

/** One thread's share of a measured loop. Each thread gets its own instance. */
interface Worker {

    /** Runs one short batch of operations (well under a millisecond on fast clocks). */
    void runBatch();

    /** How many operations one batch does. */
    int batchSize();

    /** A value derived from every result, so the JIT cannot drop the work. */
    long sink();
}
