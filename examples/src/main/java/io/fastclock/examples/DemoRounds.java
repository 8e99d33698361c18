package io.fastclock.examples;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The demo as examples/run-demo.sh runs it: each set-up (plain, agent, simulator, simulator+agent)
 * in a JVM of its own ({@link RoundServer}), taking turns row by row and round after round, so that
 * a change in the machine's load falls on all of them; then the tables, where each figure states its
 * spread and a ratio the spread swallows is not given ({@link Comparison}).
 */
public final class DemoRounds {

    /** Longest wait for a JVM to start, or to answer one request (its own work is well under a second). */
    static final long ANSWER_TIMEOUT_MILLIS = 120_000;

    private final RoundsOptions options;
    private final int processors;
    private final PrintStream out;
    private final Map<SetUp, SetUpJvm> jvms = new HashMap<>();

    private DemoRounds(RoundsOptions options, int processors, PrintStream out) {
        this.options = options;
        this.processors = processors;
        this.out = out;
    }

    public static void main(String[] args) {
        int processors = Runtime.getRuntime().availableProcessors();
        RoundsOptions options;
        try {
            options = RoundsOptions.parse(args, processors * 2);
        } catch (IllegalArgumentException e) {
            System.err.println("fastclock demo: " + e.getMessage());
            System.err.println(RoundsOptions.USAGE);
            System.exit(2);
            return;
        }
        if (options.demo.help) {
            System.out.println(RoundsOptions.USAGE);
            return;
        }
        DemoRounds demo = new DemoRounds(options, processors, System.out);
        try {
            demo.run();
        } catch (IOException e) {
            System.out.println();
            System.err.println("fastclock demo: " + e.getMessage());
            System.exit(1);
        } finally {
            demo.closeAll();
        }
    }

    private void run() throws IOException {
        long started = System.nanoTime();
        LoadAverage load = new LoadAverage(LoadAverage.PROC);
        load.read();
        List<String> labels = new ArrayList<>();
        options.setUps.forEach(s -> labels.add(s.label));
        out.println(Report.title("fastclock demo: " + String.join(", ", labels) + (labels.size() > 1
                ? ", in alternating rounds" : ", in rounds")));
        out.print(header());
        out.println();
        startAll();

        List<DemoPoint> all = DemoPoint.all(options.demo.maxThreads, processors);
        List<DemoPoint> clocks = new ArrayList<>();
        List<DemoPoint> workloads = new ArrayList<>();
        for (DemoPoint p : all) {
            if (p.selectedBy(options.demo.only)) {
                (p.clock ? clocks : workloads).add(p);
            }
        }
        RoundsReport report = new RoundsReport(options.setUps);
        out.printf("measuring %d rows x %d rounds x %d set-up%s: ", clocks.size() + workloads.size(), options.rounds,
                options.setUps.size(), options.setUps.size() > 1 ? "s" : "");
        out.flush();
        for (List<DemoPoint> section : List.of(clocks, workloads)) {
            for (DemoPoint p : section) {
                measure(all.indexOf(p), p, report);
                report.load(p, load.read());
                out.print('.');
                out.flush();
            }
        }
        out.printf(" %.0f s%n%n", (System.nanoTime() - started) / 1e9);

        out.println("load average (1 min) during the run: " + load.summary(processors));
        out.println();
        if (!clocks.isEmpty()) {
            out.println(Report.title("1. Cost of the clocks: ns per call and thread, " + (options.demo.maxThreads == 1
                    ? "1 thread" : "1.." + options.demo.maxThreads + " threads")));
            out.print(report.tables("clock", clocks));
            out.println("  The article measured 640 ns per currentTimeMillis() with the hpet clocksource (about");
            out.println("  2 M calls/s for the whole machine, whatever the thread count), 36 ns with tsc.");
            out.println();
        }
        if (!workloads.isEmpty()) {
            out.println(Report.title("2. Workloads from the article's use cases: ns per operation and thread"));
            out.print(report.tables("workload", workloads));
            for (DemoPoint p : workloads) {
                if (p.threads == 1) {
                    out.println("  " + p.workload.name() + ": " + p.workload.operation());
                }
            }
            String backwards = report.backwards(workloads);
            if (backwards != null) {
                out.println("  stamps earlier than the previous one, over every round: " + backwards);
            }
            out.println();
        }
        out.print(legend(report.anyBeforeVerdict()));
        out.print(whatTheySaid());
        out.printf("done in %.1f s%n", (System.nanoTime() - started) / 1e9);
    }

    /**
     * Takes the row's rounds, each in every set-up, starting with the next one each round; the first
     * round warms up first (the code is compiled by the later ones).
     */
    private void measure(int index, DemoPoint point, RoundsReport report) throws IOException {
        int n = options.setUps.size();
        for (int round = 0; round < options.rounds; round++) {
            String sample = String.format(Locale.ROOT, "sample %d %s %s", index,
                    round == 0 ? options.demo.warmupSeconds() : 0.0, options.sampleSeconds());
            for (int k = 0; k < n; k++) {
                SetUp s = options.setUps.get((round + k) % n);
                String answer = jvms.get(s).ask(sample, ANSWER_TIMEOUT_MILLIS);
                if (!answer.startsWith("sample ")) {
                    throw new IOException("the " + s.label + " JVM answered '" + answer + "' to '" + sample + "'");
                }
                report.add(point, s, Sample.parse(answer.substring("sample ".length())));
            }
        }
    }

    /** Starts every set-up's JVM at once and waits until each is ready. */
    private void startAll() throws IOException {
        for (SetUp s : options.setUps) {
            Map<String, String> env = new HashMap<>(System.getenv());
            s.environment(env, options.simulator);
            jvms.put(s, SetUpJvm.start(s, s.command(options.java, options.demoJar, options.agentJar, processors,
                    options.demo.maxThreads), env));
        }
        for (SetUp s : options.setUps) {
            jvms.get(s).await(ANSWER_TIMEOUT_MILLIS);
        }
    }

    private String header() {
        Report.Table t = new Report.Table("", "").left(1);
        t.row("JVM", System.getProperty("java.version") + " (" + System.getProperty("java.vm.name") + ", "
                + System.getProperty("java.vendor") + ")");
        t.row("processors", Integer.toString(processors));
        t.row("clocksource", Environment.clocksource(Environment.CLOCKSOURCE));
        t.row("run", String.format(Locale.ROOT, "per row and set-up: %s s warm-up, then %d rounds of %s s each%s",
                fmt(options.demo.warmupSeconds()), options.rounds, fmt(options.sampleSeconds()),
                options.demo.quick ? " (--quick)" : ""));
        for (SetUp s : options.setUps) {
            t.row("set-up " + s.label, s.describe(options.agentJar, options.simulator, System.getenv()));
        }
        // A list of facts, not a table: no header row.
        String[] lines = t.toString().split(System.lineSeparator(), 3);
        return lines.length == 3 ? lines[2] : "";
    }

    private String legend(boolean beforeVerdict) {
        List<String> lines = new ArrayList<>(List.of(
                "How to read the tables:",
                "  Each figure is the median of its " + options.rounds + " rounds, ± half the range between its fastest and",
                "  slowest round. The set-ups took turns at each row, round after round, so that a change in the",
                "  machine's load falls on all of them. A ratio comes with its range, from the rounds least and",
                "  most favourable to it, and is given only where the spread is smaller than the difference: the",
                "  range lies wholly on one side of 1x, and its high end over its low end is less than the ratio",
                "  squared. Otherwise it reads \"" + Comparison.NOT_COMPARABLE + "\".",
                "  load: the 1-minute load average after the row."));
        if (options.setUps.stream().anyMatch(s -> s.agent)) {
            lines.add("  The agent runs at its defaults: it decides on a thread of its own while the demo runs, which");
            lines.add("  reads the system clocks until then" + (beforeVerdict
                    ? "; a figure marked" + RoundsReport.BEFORE_VERDICT_MARK + " has rounds that began before the verdict."
                    : ". Every round here began after its verdict."));
            lines.add("  Where it was inactive in every round of a row, it ran the same code as the set-up without it:");
            lines.add("  the last column says \"" + RoundsReport.AGENT_INACTIVE + "\", and any difference between the two");
            lines.add("  figures is the machine's.");
        }
        String nl = System.lineSeparator();
        return String.join(nl, lines) + nl + nl;
    }

    /** What each JVM printed on stderr (the agent's start line), and the agent's state at the end. */
    private String whatTheySaid() throws IOException {
        String nl = System.lineSeparator();
        StringBuilder b = new StringBuilder();
        for (SetUp s : options.setUps) {
            SetUpJvm jvm = jvms.get(s);
            String state = s.agent ? jvm.ask("state", ANSWER_TIMEOUT_MILLIS).substring("state ".length()) : null;
            List<String> said = jvm.stderr();
            if (state == null && said.isEmpty()) {
                continue;
            }
            b.append(s.label).append(':').append(nl);
            if (state != null) {
                b.append("  fastclock.active at the end: ").append(state.equals("-") ? "not set" : state).append(nl);
            }
            for (String line : said) {
                b.append("  ").append(line).append(nl);
            }
        }
        return b.length() == 0 ? "" : "What the set-ups said on stderr:" + nl + b + nl;
    }

    private void closeAll() {
        for (SetUpJvm jvm : jvms.values()) {
            jvm.close();
        }
    }

    private static String fmt(double seconds) {
        return java.math.BigDecimal.valueOf(seconds).setScale(3, java.math.RoundingMode.HALF_UP).stripTrailingZeros()
                .toPlainString();
    }
}
