package io.fastclock.examples;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The JVM of one set-up in the demo's rounds ({@link DemoRounds} starts one per set-up and asks
 * each in turn). Reads commands on stdin, one a line, and answers each on stdout with a line that
 * begins with {@link #PREFIX}, so that anything else printed there is told apart:
 * <pre>
 *   sample INDEX WARMUP SECONDS  runs point INDEX, then measures it         -&gt; sample (Sample's words)
 *   state                        the agent's fastclock.active, "-" if unset  -&gt; state WORD
 * </pre>
 * It ends at the end of stdin. Arguments: the processors and the largest thread count of the
 * clock table (what {@link DemoPoint#all} takes), so that an index names the same point as in the
 * driver.
 */
public final class RoundServer {

    static final String PREFIX = "fastclock-demo: ";

    private final List<DemoPoint> points;
    private final PrintStream out;

    RoundServer(List<DemoPoint> points, PrintStream out) {
        this.points = points;
        this.out = out;
    }

    public static void main(String[] args) throws IOException {
        int processors = Integer.parseInt(args[0]);
        int maxThreads = Integer.parseInt(args[1]);
        RoundServer server = new RoundServer(DemoPoint.all(maxThreads, processors), System.out);
        server.answer("ready " + System.getProperty("java.version"));
        server.serve(new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)));
    }

    void serve(BufferedReader in) throws IOException {
        String line;
        while ((line = in.readLine()) != null) {
            String[] w = line.trim().split(" ");
            switch (w[0]) {
                case "sample":
                    answer("sample " + sample(points.get(Integer.parseInt(w[1])), Double.parseDouble(w[2]),
                            Double.parseDouble(w[3])).words());
                    break;
                case "state":
                    answer("state " + Sample.word(agentState()));
                    break;
                default:
                    answer("unknown command '" + line + "'");
            }
        }
    }

    private Sample sample(DemoPoint point, double warmupSeconds, double seconds) {
        String before = agentState();
        List<Worker> workers = Collections.synchronizedList(new ArrayList<>());
        ParallelRunner.Result r = ParallelRunner.run(point.threads, warmupSeconds, seconds, t -> {
            Worker worker = point.workload.newWorker();
            workers.add(worker);
            return worker;
        });
        return new Sample(r.nanosPerOp(), point.workload.backwards(workers), before, agentState());
    }

    /** What the agent tells the application (its mirror of the verdict), null before the verdict or without it. */
    private static String agentState() {
        return System.getProperty("fastclock.active");
    }

    private void answer(String text) {
        out.println(PREFIX + text);
        out.flush();
    }
}
