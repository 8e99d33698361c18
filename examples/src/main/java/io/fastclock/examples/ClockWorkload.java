package io.fastclock.examples;

import java.util.List;
import java.util.function.Supplier;

/** The clock table's loops as workloads, so that the rounds run them as they run the others. */
final class ClockWorkload implements Workload {

    private final String clock;
    private final Supplier<Worker> loop;

    private ClockWorkload(String clock, Supplier<Worker> loop) {
        this.clock = clock;
        this.loop = loop;
    }

    static ClockWorkload millis() {
        return new ClockWorkload("currentTimeMillis", ClockCostTable.MillisLoop::new);
    }

    static ClockWorkload nanos() {
        return new ClockWorkload("nanoTime", ClockCostTable.NanoLoop::new);
    }

    @Override
    public String name() {
        return clock;
    }

    @Override
    public String operation() {
        return "sum += System." + clock + "()";
    }

    @Override
    public Worker newWorker() {
        return loop.get();
    }

    @Override
    public String detail(List<Worker> workers) {
        return "";
    }
}
