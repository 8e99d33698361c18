package io.fastclock.examples;

import java.io.PrintStream;

/**
 * The fastclock demo: measures what System.currentTimeMillis() and System.nanoTime() cost here
 * (the article's table), then runs the article's clock-heavy use cases. Run it plain, with the
 * agent, and under the slow-clocksource simulator to see the difference (examples/run-demo.sh).
 */
public final class ClockDemo {

    private ClockDemo() {}

    public static void main(String[] args) {
        int processors = Runtime.getRuntime().availableProcessors();
        DemoOptions options;
        try {
            options = DemoOptions.parse(args, processors * 2);
        } catch (IllegalArgumentException e) {
            System.err.println("fastclock demo: " + e.getMessage());
            System.err.println(DemoOptions.USAGE);
            System.exit(2);
            return;
        }
        PrintStream out = System.out;
        if (options.help) {
            out.println(DemoOptions.USAGE);
            return;
        }
        long started = System.nanoTime();
        out.println(Report.title("fastclock demo"));
        out.print(Environment.header(processors));
        out.printf("run: %s s per point after %s s warm-up%s%n", fmt(options.seconds), fmt(options.warmupSeconds()),
                options.quick ? " (--quick)" : "");
        out.println();

        if (options.only != DemoOptions.Only.WORKLOAD) {
            out.println(Report.title("1. Cost of the clocks, 1.." + options.maxThreads + " threads"));
            out.print(ClockCostTable.format(ClockCostTable.measure(options)));
            out.println("  The article measured 640 ns per currentTimeMillis() with the hpet clocksource (about");
            out.println("  2 M calls/s for the whole machine, whatever the thread count), 36 ns with tsc.");
            out.println();
        }
        if (options.only != DemoOptions.Only.CLOCKS) {
            out.println(Report.title("2. Workloads from the article's use cases"));
            out.print(WorkloadSuite.runAll(options, processors));
            out.println();
        }
        out.printf("done in %.1f s%n", (System.nanoTime() - started) / 1e9);
    }

    private static String fmt(double seconds) {
        return java.math.BigDecimal.valueOf(seconds).stripTrailingZeros().toPlainString();
    }
}
