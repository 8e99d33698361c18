package io.fastclock.bench.report;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;

/**
 * The page's "Agent costs": hello-world start-up (wall, the main thread's time before main, memory),
 * when the verdict comes, class loading, and attach, from startup.json (StartupCost) and attach.json
 * (AttachCost); an older jar's rows beside the current one's where the run had one.
 */
final class AgentCostSection {
    private AgentCostSection() {}

    /** The headline rows: issue 19's targets, from the same files. */
    static void headlines(StringBuilder b, JsonObject startup, JsonObject attach) {
        if (startup != null) {
            JsonObject h = startup.getAsJsonObject("hello");
            // Issue 27's targets, at the defaults: inactive 5 ms, active 10 ms of the main thread's time before main.
            share(b, h, "fastclock auto (inactive on tsc)", "empty agent", "createVmMs", "main thread before main", 5);
            share(b, h, "fastclock mode=on", "empty agent", "createVmMs", "main thread before main", 10);
            share(b, h, "sim: fastclock auto", "sim: empty agent", "createVmMs", "main thread before main", 10);
            JsonObject v = startup.has("verdict") ? startup.getAsJsonObject("verdict") : null;
            for (String config : new String[] {"sim: fastclock auto"}) {
                if (v != null && v.has(config) && v.has("bare") && v.getAsJsonObject(config).get("verdictMs").isJsonObject()) {
                    // Against when main begins without the agent: the process's start time is known to the
                    // kernel's boot time in whole seconds only, an offset that cancels in the difference.
                    double ms = v.getAsJsonObject(config).getAsJsonObject("verdictMs").get("median").getAsDouble()
                            - v.getAsJsonObject("bare").getAsJsonObject("mainMs").get("median").getAsDouble();
                    b.append("| verdict after a bare JVM's main: ").append(config).append(" | hello-world | ")
                            .append(fmt(ms)).append(" ms median | ≤ 300 ms | ").append(ms <= 300 ? "yes" : "**no**").append(" |\n");
                }
            }
            JsonObject l = startup.getAsJsonObject("classLoading");
            if (l.has("fastclock mode=on") && l.has("empty agent")) {
                int n = startup.get("classes").getAsInt();
                String measure = l.getAsJsonObject("empty agent").has("loadCpuMs") ? "loadCpuMs" : "loadMs";
                double per = (ReportGenerator.median(l, "fastclock mode=on", measure) - ReportGenerator.median(l, "empty agent", measure))
                        * 1000.0 / n;
                b.append("| per rewritten class").append(measure.equals("loadCpuMs") ? ", the loading thread's CPU" : "")
                        .append(": fastclock mode=on − empty agent | ").append(n).append(" generated classes | ")
                        .append(perClass(l, "fastclock mode=on", "empty agent", measure, n))
                        .append(" | ≤ 5 µs | ").append(per <= 5 ? "yes" : "**no**").append(" |\n");
                if (l.has("no-op transformer")) {
                    b.append("| of which the JVM's class-file hook: a no-op transformer − empty agent | ").append(n)
                            .append(" generated classes | ").append(perClass(l, "no-op transformer", "empty agent", measure, n))
                            .append(" | – | – |\n");
                    b.append("| of which fastclock's transformer: fastclock mode=on − no-op transformer | ").append(n)
                            .append(" generated classes | ").append(perClass(l, "fastclock mode=on", "no-op transformer", measure, n))
                            .append(" | – | – |\n");
                }
            }
        }
        if (attach != null) {
            JsonObject rows = attach.getAsJsonObject("attach");
            for (String key : rows.keySet()) {
                if (!key.startsWith("fastclock, ")) {
                    continue;
                }
                JsonObject r = rows.getAsJsonObject(key);
                double verdict = medianOf(r.getAsJsonArray("verdictMs"));
                double target = key.contains(" 0 reader") ? 1000 : 2000;
                b.append("| attach to verdict: ").append(key).append(" | ").append(attach.get("classes").getAsInt())
                        .append(" classes | ").append(fmt(verdict)).append(" ms median | ≤ ").append(fmt(target)).append(" ms | ")
                        .append(verdict <= target ? "yes" : "**no**").append(" |\n");
                double pause = maxOf(r.getAsJsonArray("longestPauseMs"));
                b.append("| longest RedefineClasses pause: ").append(key).append(" | ").append(attach.get("classes").getAsInt())
                        .append(" classes | ").append(fmt(pause)).append(" ms, the longest of ").append(r.getAsJsonArray("longestPauseMs").size())
                        .append(" runs | ≤ 20 ms | ").append(pause <= 20 ? "yes" : "**no**").append(" |\n");
            }
        }
    }

    private static void share(StringBuilder b, JsonObject hello, String agent, String base, String metric, String what, double targetMs) {
        if (!hello.has(agent) || !hello.has(base) || !hello.getAsJsonObject(agent).has(metric)) {
            return;
        }
        double a = ReportGenerator.median(hello, agent, metric);
        double e = ReportGenerator.median(hello, base, metric);
        double d = a - e;
        b.append("| ").append(what).append(": ").append(agent).append(" − ").append(base).append(" | hello-world | ")
                .append(String.format(Locale.ROOT, "%+.1f ms", d)).append(" (").append(String.format(Locale.ROOT, "%.1f / %.1f", a, e))
                .append(" ms median) | ≤ ").append(fmt(targetMs)).append(" ms | ").append(d <= targetMs ? "yes" : "**no**").append(" |\n");
    }

    static void render(StringBuilder b, JsonObject s, JsonObject attach, Path docs) throws IOException {
        b.append("## Agent costs\n\n");
        String oldName = s.has("oldName") && !s.get("oldName").isJsonNull() ? s.get("oldName").getAsString() : null;
        if (oldName != null) {
            b.append("Rows named `fastclock ").append(oldName).append("` are the agent built from commit ").append(oldName)
                    .append(" (`run.sh --old ").append(oldName).append("`), run in the same rounds as this checkout's, alternately, so that "
                    + "the two are compared side by side on the same machine at the same time.\n\n");
        }
        hello(b, s, docs);
        verdict(b, s);
        classLoading(b, s, oldName);
        if (attach != null) {
            attach(b, attach);
        }
    }

    private static void hello(StringBuilder b, JsonObject s, Path docs) throws IOException {
        JsonObject h = s.getAsJsonObject("hello");
        b.append("### Hello-world JVM start-up (").append(s.get("runs").getAsInt())
                .append(" alternating runs each)\n\n");
        b.append("Wall: the whole process, as its parent sees it. Before main: the JVM's \"Create VM\" phase "
                + "(`-Xlog:startuptime`), which includes premain: the time the main thread spends before the application's `main`. "
                + "VmHWM: the peak resident memory, read by the hello world at its end (with `start=background` the agent may not "
                + "have finished by then). Medians; Δ against the empty agent (a premain that does nothing) of the same group.\n\n");
        b.append("| configuration | wall ms | min | max | Δ wall | before main ms | Δ before main | VmHWM MB | Δ HWM | agent's stderr |\n"
                + "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
        CategoryChart chart = new CategoryChartBuilder().width(1100).height(550).title("hello-world start-up, median ms")
                .yAxisTitle("ms").build();
        chart.getStyler().setXAxisLabelRotation(30);
        List<String> x = new ArrayList<>();
        List<Double> wall = new ArrayList<>();
        List<Double> beforeMain = new ArrayList<>();
        for (String config : h.keySet()) {
            JsonObject c = h.getAsJsonObject(config);
            JsonObject w = c.getAsJsonObject("wallMs");
            String base = config.startsWith("sim:") ? "sim: empty agent" : "empty agent";
            boolean agent = config.contains("fastclock");
            double vm = c.has("createVmMs") ? c.getAsJsonObject("createVmMs").get("median").getAsDouble() : Double.NaN;
            double dWall = w.get("median").getAsDouble() - ReportGenerator.median(h, base, "wallMs");
            double dVm = vm - (h.getAsJsonObject(base).has("createVmMs") ? ReportGenerator.median(h, base, "createVmMs") : Double.NaN);
            double dh = (ReportGenerator.median(h, config, "vmHwmKb") - ReportGenerator.median(h, base, "vmHwmKb")) / 1024.0;
            JsonArray err = c.getAsJsonArray("stderr");
            String line = err.size() == 0 ? "" : err.get(0).getAsString().replace("|", "\\|").replace("\n", " ");
            b.append("| ").append(config).append(" | ").append(fmt(w.get("median").getAsDouble())).append(" | ")
                    .append(fmt(w.get("min").getAsDouble())).append(" | ").append(fmt(w.get("max").getAsDouble())).append(" | ")
                    .append(agent ? String.format(Locale.ROOT, "%+.1f", dWall) : "").append(" | ")
                    .append(Double.isNaN(vm) ? "" : fmt(vm)).append(" | ")
                    .append(agent && !Double.isNaN(dVm) ? String.format(Locale.ROOT, "%+.1f", dVm) : "").append(" | ")
                    .append(String.format(Locale.ROOT, "%.1f", ReportGenerator.median(h, config, "vmHwmKb") / 1024.0)).append(" | ")
                    .append(agent ? String.format(Locale.ROOT, "%+.1f", dh) : "").append(" | ")
                    .append(line.isEmpty() ? "" : "`" + line + "`").append(" |\n");
            x.add(config);
            wall.add(w.get("median").getAsDouble());
            beforeMain.add(Double.isNaN(vm) ? 0 : vm);
        }
        chart.addSeries("wall", x, wall);
        chart.addSeries("before main", x, beforeMain);
        BitmapEncoder.saveBitmap(chart, docs.resolve("img/startup.png").toString(), BitmapEncoder.BitmapFormat.PNG);
        b.append("\n![start-up](img/startup.png)\n\n");
    }

    private static void verdict(StringBuilder b, JsonObject s) {
        if (!s.has("verdict")) {
            return;
        }
        JsonObject v = s.getAsJsonObject("verdict");
        b.append("### When main begins and when the verdict comes (").append(s.get("runs").getAsInt())
                .append(" alternating runs each; ms after the process started, by the kernel's start time at its 10 ms tick)\n\n");
        b.append("The child (`io.fastclock.bench.startup.VerdictTime`) prints when its `main` began, then polls `fastclock.active`, "
                + "which the agent publishes with its verdict. With `start=wait` the verdict is in before `main`; at the "
                + "defaults (`start=background`) `main` runs meanwhile.\n\n");
        b.append("| configuration | main begins, median | min–max | verdict, median | min–max |\n|---|---:|---|---:|---|\n");
        for (String config : v.keySet()) {
            JsonObject c = v.getAsJsonObject(config);
            JsonObject main = c.getAsJsonObject("mainMs");
            JsonElement ve = c.get("verdictMs");
            b.append("| ").append(config).append(" | ").append(fmt(main.get("median").getAsDouble())).append(" | ")
                    .append(fmt(main.get("min").getAsDouble())).append("–").append(fmt(main.get("max").getAsDouble())).append(" | ");
            if (ve.isJsonObject()) {
                JsonObject vo = ve.getAsJsonObject();
                b.append(fmt(vo.get("median").getAsDouble())).append(" | ").append(fmt(vo.get("min").getAsDouble())).append("–")
                        .append(fmt(vo.get("max").getAsDouble()));
            } else {
                b.append("– | –");
            }
            int missing = c.get("runsWithoutVerdict").getAsInt();
            if (missing > 0 && ve.isJsonObject()) {
                b.append(" (").append(missing).append(" runs without one)");
            }
            b.append(" |\n");
        }
        b.append('\n');
    }

    private static void classLoading(StringBuilder b, JsonObject s, String oldName) {
        JsonObject l = s.getAsJsonObject("classLoading");
        int n = s.get("classes").getAsInt();
        b.append("### Loading ").append(n).append(" generated classes that each call System.currentTimeMillis() (")
                .append(s.get("loadRuns").getAsInt()).append(" alternating runs; time to load, link and call each once, measured in the child)\n\n");
        boolean cpu = l.getAsJsonObject("empty agent").has("loadCpuMs");
        b.append("| configuration | median ms | min | max | per class vs bare | per class vs empty agent |")
                .append(cpu ? " loading thread's CPU, median ms | CPU per class vs empty agent |\n|---|---:|---:|---:|---:|---:|---:|---:|\n"
                        : "\n|---|---:|---:|---:|---:|---:|\n");
        double bare = ReportGenerator.median(l, "bare", "loadMs");
        double emptyAgent = ReportGenerator.median(l, "empty agent", "loadMs");
        for (String config : l.keySet()) {
            JsonObject w = l.getAsJsonObject(config).getAsJsonObject("loadMs");
            double per = (w.get("median").getAsDouble() - bare) * 1000.0 / n;
            b.append("| ").append(config).append(" | ").append(fmt(w.get("median").getAsDouble())).append(" | ")
                    .append(fmt(w.get("min").getAsDouble())).append(" | ").append(fmt(w.get("max").getAsDouble())).append(" | ")
                    .append(String.format(Locale.ROOT, "%+.1f µs", per)).append(" | ")
                    .append(String.format(Locale.ROOT, "%+.1f µs", (w.get("median").getAsDouble() - emptyAgent) * 1000.0 / n)).append(" |");
            if (cpu) {
                double c = ReportGenerator.median(l, config, "loadCpuMs");
                b.append(' ').append(fmt(c)).append(" | ").append(String.format(Locale.ROOT, "%+.1f µs",
                        (c - ReportGenerator.median(l, "empty agent", "loadCpuMs")) * 1000.0 / n)).append(" |");
            }
            b.append('\n');
        }
        b.append("\nWith `mode=on` every one of these classes mentions `java/lang/System` and is rewritten, so this is the worst case "
                + "per class; classes that never mention it are skipped after a byte scan. This checkout rewrites on the constant pool "
                + "(the clock Methodrefs repointed at the runtime class, ASM only as the fallback)");
        if (oldName != null) {
            b.append("; `fastclock ").append(oldName).append("` rewrote every such class with ASM where that commit did");
        }
        b.append(".");
        if (l.has("no-op transformer")) {
            b.append(" The no-op transformer changes nothing: it is what the JVM's class-file hook costs each class before any "
                    + "agent's code runs, so fastclock's own share is its row less that one.");
        }
        if (cpu) {
            b.append(" CPU: the loading thread's time on a CPU (schedstat), to which the JIT's and the GC's threads and "
                    + "preemption add nothing.");
        }
        b.append("\n\n");
    }

    private static void attach(StringBuilder b, JsonObject a) {
        JsonObject rows = a.getAsJsonObject("attach");
        b.append("### Attaching to a running JVM (").append(a.get("classes").getAsInt()).append(" classes loaded from a jar, one in ten "
                + "calls the clock; under the simulator; ").append(a.get("runs").getAsInt()).append(" rounds, the agents alternately)\n\n");
        b.append("`io.fastclock.bench.AttachCost`: the program (`io.fastclock.bench.startup.AttachTarget`) loads its classes, optionally starts "
                + "threads that read both clocks without pause (two such threads load both cores), then gets `java -jar fastclock.jar attach PID "
                + "mode=on`. Attach to verdict is what the command reports; the command's wall time includes its own JVM; the pause is the "
                + "program's longest `RedefineClasses` safepoint (`-Xlog:safepoint`, reaching it included). Each run's figure, in run order.\n\n");
        b.append("| agent, reader threads | attach to verdict ms | command wall ms | longest pause ms | pauses | load average |\n"
                + "|---|---|---|---|---|---|\n");
        for (String key : rows.keySet()) {
            JsonObject r = rows.getAsJsonObject(key);
            b.append("| ").append(key).append(" | ").append(list(r.getAsJsonArray("verdictMs"))).append(" | ")
                    .append(list(r.getAsJsonArray("commandMs"))).append(" | ").append(list(r.getAsJsonArray("longestPauseMs"))).append(" | ")
                    .append(list(r.getAsJsonArray("pauses"))).append(" | ").append(list(r.getAsJsonArray("loadAverage"))).append(" |\n");
        }
        b.append('\n');
    }

    private static String list(JsonArray values) {
        StringBuilder s = new StringBuilder();
        for (JsonElement e : values) {
            if (s.length() > 0) {
                s.append(", ");
            }
            double v = e.getAsDouble();
            s.append(v == Math.rint(v) ? String.format(Locale.ROOT, "%.0f", v) : fmt(v));
        }
        return s.toString();
    }

    private static double medianOf(JsonArray values) {
        return medianOf(doubles(values));
    }

    private static double maxOf(JsonArray values) {
        double m = Double.NEGATIVE_INFINITY;
        for (JsonElement e : values) {
            m = Math.max(m, e.getAsDouble());
        }
        return m;
    }

    private static String fmt(double v) {
        return ReportGenerator.fmt(v);
    }
    /**
     * The difference of two configurations' medians per class, in µs, with a 95% bootstrap interval
     * (the runs of each resampled 2000 times, a fixed seed so that the page is the same for the same
     * data): a few µs a class is within this machine's run-to-run spread, and the page says how much.
     */
    static String perClass(JsonObject group, String config, String baseline, String metric, int classes) {
        double[] a = runs(group, config, metric);
        double[] b = runs(group, baseline, metric);
        double point = (medianOf(a) - medianOf(b)) * 1000.0 / classes;
        SplittableRandom random = new SplittableRandom(27);
        double[] resampled = new double[2000];
        for (int i = 0; i < resampled.length; i++) {
            resampled[i] = (medianOf(resample(a, random)) - medianOf(resample(b, random))) * 1000.0 / classes;
        }
        Arrays.sort(resampled);
        return String.format(Locale.ROOT, "%+.1f µs (95%%: %+.1f to %+.1f)", point,
                resampled[(int) (resampled.length * 0.025)], resampled[(int) (resampled.length * 0.975) - 1]);
    }

    private static double[] runs(JsonObject group, String config, String metric) {
        return doubles(group.getAsJsonObject(config).getAsJsonObject(metric).getAsJsonArray("all"));
    }

    private static double[] doubles(JsonArray values) {
        double[] v = new double[values.size()];
        for (int i = 0; i < v.length; i++) {
            v[i] = values.get(i).getAsDouble();
        }
        return v;
    }

    private static double[] resample(double[] v, SplittableRandom random) {
        double[] r = new double[v.length];
        for (int i = 0; i < r.length; i++) {
            r[i] = v[random.nextInt(v.length)];
        }
        return r;
    }

    private static double medianOf(double[] values) {
        double[] v = values.clone();
        Arrays.sort(v);
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2.0;
    }
}
