package io.fastclock.examples;

import java.util.ArrayList;
import java.util.List;

/** One row of the demo's tables: a workload run by a number of threads at once. */
final class DemoPoint {

    final boolean clock;
    final Workload workload;
    final int threads;

    private DemoPoint(boolean clock, Workload workload, int threads) {
        this.clock = clock;
        this.workload = workload;
        this.threads = threads;
    }

    /**
     * Every point, in the tables' order: each clock with 1..maxThreads threads, then each workload
     * with one thread and with one per processor. The same arguments give the same list in every
     * JVM, so that a point is named by its index.
     */
    static List<DemoPoint> all(int maxThreads, int processors) {
        List<DemoPoint> points = new ArrayList<>();
        for (Workload clock : List.of(ClockWorkload.millis(), ClockWorkload.nanos())) {
            for (int threads = 1; threads <= maxThreads; threads++) {
                points.add(new DemoPoint(true, clock, threads));
            }
        }
        List<Integer> threadCounts = processors > 1 ? List.of(1, processors) : List.of(1);
        for (Workload w : WorkloadSuite.workloads()) {
            for (int threads : threadCounts) {
                points.add(new DemoPoint(false, w, threads));
            }
        }
        return points;
    }

    boolean selectedBy(DemoOptions.Only only) {
        return only == DemoOptions.Only.ALL || (only == DemoOptions.Only.CLOCKS) == clock;
    }
}
