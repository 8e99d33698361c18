package io.fastclock.examples;

import java.util.List;

/** A clock-heavy workload from the article's use cases, run by {@link WorkloadSuite}. */
interface Workload {

    /** Short name for the table. */
    String name();

    /** What one operation is, and which clock calls it makes. */
    String operation();

    /** A fresh worker for one thread. */
    Worker newWorker();

    /** A one-line summary of what the given workers saw (e.g. slow requests, cache hit rate). */
    String detail(List<Worker> workers);

    /** Stamps the given workers saw earlier than the one before, or -1 where the workload does not check. */
    default long backwards(List<Worker> workers) {
        return -1;
    }
}
