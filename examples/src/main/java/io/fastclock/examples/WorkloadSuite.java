package io.fastclock.examples;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Runs the article's use-case workloads with one thread and with all processors. */
final class WorkloadSuite {

    static List<Workload> workloads() {
        List<Workload> list = new ArrayList<>();
        list.add(new RequestLoopWorkload());
        list.add(new TtlCacheWorkload());
        list.add(new EventStampWorkload());
        list.add(JavaTimeWorkload.instant());
        list.add(JavaTimeWorkload.localDateTime());
        list.add(new LogbackWorkload());
        return list;
    }

    static String runAll(DemoOptions options, int processors) {
        List<Integer> threadCounts = processors > 1 ? List.of(1, processors) : List.of(1);
        Report.Table table = new Report.Table("workload", "threads", "ops/s", "ns/op (per thread)", "detail").left(4);
        StringBuilder legend = new StringBuilder();
        for (Workload w : workloads()) {
            legend.append("  ").append(w.name()).append(": ").append(w.operation()).append(System.lineSeparator());
            for (int threads : threadCounts) {
                List<Worker> workers = Collections.synchronizedList(new ArrayList<>());
                ParallelRunner.Result r = ParallelRunner.run(threads, options.warmupSeconds(), options.seconds, t -> {
                    Worker worker = w.newWorker();
                    workers.add(worker);
                    return worker;
                });
                table.row(w.name(), Integer.toString(threads), Report.rate(r.opsPerSecond()),
                        Report.nanos(r.nanosPerOp()), w.detail(workers));
            }
        }
        return table + legend.toString();
    }
}
