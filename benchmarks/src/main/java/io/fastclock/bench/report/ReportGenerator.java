package io.fastclock.bench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.fastclock.bench.PeerClockBench;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;

/**
 * Reads the raw JMH JSON in benchmarks/results/ (one file per simulated machine) and startup.json,
 * and writes docs/BENCHMARKS.md with tables, headline ratios and PNG charts (docs/img/). Nothing in
 * here is a measured number: every figure comes from the JSON of the last run.sh.
 *
 * <pre>ReportGenerator --results benchmarks/results --docs docs --mode quick</pre>
 */
public final class ReportGenerator {
    static final String[] MACHINES = {"tsc", "sim-syscall", "sim-hpet500", "sim-hpet500-serial"};
    static final Map<String, String> MACHINE_TEXT = new LinkedHashMap<>();

    static {
        MACHINE_TEXT.put("tsc", "this VM as it is (clocksource tsc: clock reads stay in the vDSO)");
        MACHINE_TEXT.put("sim-syscall", "LD_PRELOAD=libslowclock.so: every fine clock read is a real syscall (what hpet/acpi_pm/xen do, minus the hardware access)");
        MACHINE_TEXT.put("sim-hpet500", "the same plus SLOWCLOCK_SPIN_NS=500 busy wait per read (HPET-like: 600+ ns a read)");
        MACHINE_TEXT.put("sim-hpet500-serial", "sim-hpet500 with SLOWCLOCK_SERIALIZE=1: one fine read at a time across the "
                + "process, as HPET serialises reads machine-wide (only the scaling set is run here)");
    }

    /** One row of the tables: a benchmark method (and backend parameter) and what it gives up. */
    static final class Row {
        final String id;
        final String name;
        final String method;
        final String backend;
        final String semantics;

        Row(String id, String name, String method, String backend, String semantics) {
            this.id = id;
            this.name = name;
            this.method = method;
            this.backend = backend;
            this.semantics = semantics;
        }
    }

    /** Placeholders in a row's semantics, filled from machine.json (see {@link #semantics(Row)}). */
    static final String TICK = "{tick}";
    static final String LAG = "{lag}";

    /** The semantics table: what each clock gives up in exchange for its speed. */
    static final List<Row> ROWS = new ArrayList<>();

    static {
        ROWS.add(new Row("sys.millis", "System.currentTimeMillis()", "SystemClockBench.currentTimeMillis", null,
                "reference: exact wall clock, 1 ms resolution; cost follows the clocksource"));
        ROWS.add(new Row("sys.nanos", "System.nanoTime()", "SystemClockBench.nanoTime", null,
                "reference: CLOCK_MONOTONIC, ns resolution; cost follows the clocksource"));
        ROWS.add(new Row("sys.instant", "Instant.now()", "SystemClockBench.instantNow", null,
                "exact, µs resolution, plus an allocation; same clock read underneath"));
        ROWS.add(new Row("fc.millis.system", "fastclock millis [system]", "FastClockBench.currentTimeMillis", "system",
                "what an inactive/auto-declined agent costs: the system clock behind FastClock's static final"));
        ROWS.add(new Row("fc.millis.coarse", "fastclock millis [coarse]", "FastClockBench.currentTimeMillis", "coarse",
                "CLOCK_REALTIME_COARSE via JNI: resolution one kernel tick (" + TICK + "), lag up to 2 ticks" + LAG
                        + "; no thread, no calibration"));
        ROWS.add(new Row("fc.millis.tsc", "fastclock millis [tsc]", "FastClockBench.currentTimeMillis", "tsc",
                "TSC-derived epoch ms, lag ≤ 1 ms; needs invariant TSC + calibration; one anchor thread re-anchoring about "
                        + "4×/s (250 ms segments)"));
        ROWS.add(new Row("fc.millis.jna", "fastclock millis [jna-coarse]", "FastClockBench.currentTimeMillis", "jna-coarse",
                "the fallback where libfastclock cannot load: the same CLOCK_REALTIME_COARSE (same tick and lag as coarse) "
                        + "through JNA, whose call costs more than the clock; JNA loaded privately at start-up"));
        ROWS.add(new Row("fc.nanos.system", "fastclock nanos [system]", "FastClockBench.nanoTime", "system",
                "the system clock behind FastClock's static final"));
        ROWS.add(new Row("fc.nanos.coarse", "fastclock nanos [coarse]", "FastClockBench.nanoTime", "coarse",
                "CLOCK_MONOTONIC_COARSE: one-tick resolution; never chosen for nanoTime unless asked by name"));
        ROWS.add(new Row("fc.nanos.tsc", "fastclock nanos [tsc]", "FastClockBench.nanoTime", "tsc",
                "rdtsc scaled to CLOCK_MONOTONIC, < 1 µs resolution, monotonic across threads; calibration + anchor thread + trust re-checks"));
        ROWS.add(new Row("limit.noop", "LIMIT: JNI no-op call", "LimitBench.jniNoop", null,
                "the JNI transition alone: what any JNI clock pays on top of its read"));
        ROWS.add(new Row("limit.rdtscp", "LIMIT: JNI rdtscp", "LimitBench.jniRdtscp", null,
                "an ordered TSC read through JNI, no clock logic"));
        ROWS.add(new Row("limit.lfence", "LIMIT: JNI lfence; rdtsc", "LimitBench.jniLfenceRdtsc", null,
                "an ordered TSC read (Intel; AMD with LFENCE serialising) through JNI, no clock logic"));
        ROWS.add(new Row("limit.mfence", "LIMIT: JNI mfence; rdtsc", "LimitBench.jniMfenceRdtsc", null,
                "AMD's ordered read through JNI (offered on AMD only)"));
        ROWS.add(new Row("limit.rdtsc", "LIMIT: JNI rdtsc (unordered)", "LimitBench.jniRdtsc", null,
                "an unordered TSC read through JNI: what TSC millis reads"));
        ROWS.add(new Row("limit.coarse", "LIMIT: JNI CLOCK_REALTIME_COARSE", "LimitBench.jniRealtimeCoarse", null,
                "the coarse clock through JNI, no dispatch"));
        for (String agent : new String[] {"none", "fastclock"}) {
            String with = agent.equals("none") ? " [no agent]" : " [agent]";
            String how = agent.equals("none") ? "the JDK as it is" : "with -javaagent:fastclock.jar (auto)";
            ROWS.add(new Row("jt.instant." + agent, "Instant.now()" + with, "JavaTimeBench.instantNow", agent,
                    how + ": Clock.currentInstant, VM.getNanoTimeAdjustment"));
            ROWS.add(new Row("jt.clockmillis." + agent, "Clock.systemUTC().millis()" + with, "JavaTimeBench.clockMillis", agent,
                    how + ": System.currentTimeMillis inside the JDK"));
            ROWS.add(new Row("jt.ldt." + agent, "LocalDateTime.now()" + with, "JavaTimeBench.localDateTimeNow", agent,
                    how + ": Instant.now plus the zone's offset"));
            ROWS.add(new Row("log.logback." + agent, "Logback event" + with, "LoggingBench.logbackEvent", agent,
                    how + ": Logback 1.5, pattern with %d, to a null stream"));
            ROWS.add(new Row("log.log4j2." + agent, "Log4j2 event" + with, "LoggingBench.log4j2Event", agent,
                    how + ": Log4j2 2.24, pattern with %d, to a null stream"));
        }
        ROWS.add(new Row("log4j.system", "Log4j2 SystemClock", "PeerClockBench.log4jSystemClock", null,
                "nothing: System.currentTimeMillis() behind an interface"));
        ROWS.add(new Row("log4j.cached", "Log4j2 CachedClock", "PeerClockBench.log4jCachedClock", null,
                "stale by up to ~1 ms (thread parks 1 ms) or more when the thread is starved; a daemon thread forever; a plain shared call counter (cache-line writes from every caller, re-reads the system clock every 1000 calls)"));
        ROWS.add(new Row("log4j.coarse", "Log4j2 CoarseCachedClock", "PeerClockBench.log4jCoarseCachedClock", null,
                "stale by ≥ 1 ms, unbounded when the updater thread is starved; a daemon thread waking ~1000×/s forever"));
        ROWS.add(new Row("agrona.epoch", "Agrona SystemEpochClock", "PeerClockBench.agronaSystemEpochClock", null,
                "nothing: System.currentTimeMillis()"));
        ROWS.add(new Row("agrona.nano", "Agrona SystemNanoClock", "PeerClockBench.agronaSystemNanoClock", null,
                "nothing: System.nanoTime()"));
        ROWS.add(new Row("agrona.offset", "Agrona OffsetEpochNanoClock", "PeerClockBench.agronaOffsetEpochNanoClock", null,
                "epoch ns = System.nanoTime() + offset sampled at start: does not follow wall-clock steps (NTP, date -s); same cost as nanoTime"));
        ROWS.add(new Row("agrona.cached", "Agrona CachedEpochClock (+1 ms updater)", "PeerClockBench.agronaCachedEpochClock", null,
                "a plain field: stale by the updater's period (1 ms here, Aeron's duty cycle), frozen if nobody updates it; needs a thread (the benchmark starts one)"));
        ROWS.add(new Row("hft.ticks", "OpenHFT Ticker.ticks()", "PeerClockBench.openhftTickerTicks", null,
                "JNI rdtsc only with Chronicle's native lib: raw ticks, one-time calibration, no cross-CPU or drift checks; else System.nanoTime()"));
        ROWS.add(new Row("hft.nanos", "OpenHFT Ticker.nanoTime()", "PeerClockBench.openhftTickerNanoTime", null,
                "ticks scaled by a one-time calibration (drifts; no re-anchoring); else System.nanoTime()"));
    }

    static final String[] SCALING = {"sys.millis", "fc.millis.coarse", "fc.millis.tsc", "sys.nanos", "fc.nanos.tsc"};

    /** score and error in ns/op (avgt) and total ops/s (thrpt, when measured). */
    static final class Result {
        double avg = Double.NaN;
        double avgErr = Double.NaN;
        double thrpt = Double.NaN;
        double thrptErr = Double.NaN;
        int threads;
    }

    /** machine -> row id -> threads -> result */
    final Map<String, Map<String, Map<Integer, Result>>> data = new LinkedHashMap<>();
    final TreeSet<Integer> threadCounts = new TreeSet<>();
    String jdk = "?";
    String jmhVersion = "?";
    String jmhSettings = "?";
    boolean thrptMeasured;
    /** clock_getres(CLOCK_REALTIME_COARSE) of the benchmarked machine from machine.json, or -1. */
    long coarseTickNs = -1;
    /** machine.json as run.sh recorded it (C costs of each read, the TSC reads chosen), or null. */
    JsonObject machineInfo;
    /** attach.json (AttachCost), or null. */
    JsonObject attach;

    public static void main(String[] args) throws IOException {
        Path results = Path.of("benchmarks/results");
        Path docs = Path.of("docs");
        String mode = "quick";
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--results": results = Path.of(args[++i]); break;
                case "--docs": docs = Path.of(args[++i]); break;
                case "--mode": mode = args[++i]; break;
                default: throw new IllegalArgumentException("unknown argument " + args[i] + " (accepted: --results --docs --mode)");
            }
        }
        ReportGenerator g = new ReportGenerator();
        for (String m : MACHINES) {
            Path f = results.resolve(m + ".json");
            if (Files.isRegularFile(f)) {
                g.load(m, JsonParser.parseString(Files.readString(f)).getAsJsonArray());
            }
        }
        Path machine = results.resolve("machine.json");
        if (Files.isRegularFile(machine)) {
            JsonObject info = JsonParser.parseString(Files.readString(machine)).getAsJsonObject();
            if (info.has("realtimeCoarseResolutionNs")) {
                g.coarseTickNs = info.get("realtimeCoarseResolutionNs").getAsLong();
            }
            g.machineInfo = info;
        }
        JsonObject startup = null;
        Path s = results.resolve("startup.json");
        if (Files.isRegularFile(s)) {
            startup = JsonParser.parseString(Files.readString(s)).getAsJsonObject();
        }
        Path a = results.resolve("attach.json");
        if (Files.isRegularFile(a)) {
            g.attach = JsonParser.parseString(Files.readString(a)).getAsJsonObject();
        }
        Files.createDirectories(docs.resolve("img"));
        String md = g.render(docs, startup, mode);
        // The service under a slow clock, alone and beside APM agents (benchmarks/service-bench.py writes them, with
        // wrk): kept across regenerations until that script runs again.
        for (String written : new String[] {"service.md", "service-apm.md"}) {
            Path service = results.resolve(written);
            if (Files.isRegularFile(service)) {
                md = md + "\n" + Files.readString(service);
            }
        }
        // The figures from real kernels in QEMU guests (docs/GUEST-LAB.md) are written by hand from the lab's
        // runs: kept as they are across regenerations.
        Path guest = results.resolve("guest.md");
        if (Files.isRegularFile(guest)) {
            md = md + "\n" + Files.readString(guest);
        }
        Files.writeString(docs.resolve("BENCHMARKS.md"), md);
        System.err.println("ReportGenerator: wrote " + docs.resolve("BENCHMARKS.md"));
    }

    void load(String machine, JsonArray arr) {
        Map<String, Map<Integer, Result>> rows = data.computeIfAbsent(machine, k -> new LinkedHashMap<>());
        for (JsonElement e : arr) {
            JsonObject o = e.getAsJsonObject();
            String bench = o.get("benchmark").getAsString();
            String shortName = bench.substring(bench.lastIndexOf('.', bench.lastIndexOf('.') - 1) + 1);
            String backend = null;
            if (o.has("params") && o.getAsJsonObject("params").has("backend")) {
                backend = o.getAsJsonObject("params").get("backend").getAsString();
            } else if (o.has("params") && o.getAsJsonObject("params").has("agent")) {
                backend = o.getAsJsonObject("params").get("agent").getAsString();
            }
            Row row = null;
            for (Row r : ROWS) {
                if (r.method.equals(shortName) && (r.backend == null ? backend == null : r.backend.equals(backend))) {
                    row = r;
                }
            }
            if (row == null) {
                continue;
            }
            int threads = o.get("threads").getAsInt();
            threadCounts.add(threads);
            Result res = rows.computeIfAbsent(row.id, k -> new LinkedHashMap<>()).computeIfAbsent(threads, k -> new Result());
            res.threads = threads;
            JsonObject pm = o.getAsJsonObject("primaryMetric");
            double score = pm.get("score").getAsDouble();
            double err = pm.has("scoreError") && !pm.get("scoreError").getAsString().equals("NaN") ? pm.get("scoreError").getAsDouble() : Double.NaN;
            String unit = pm.get("scoreUnit").getAsString();
            String mode = o.get("mode").getAsString();
            if (mode.equals("avgt")) {
                double k = unit.startsWith("ns") ? 1 : unit.startsWith("us") ? 1e3 : unit.startsWith("ms") ? 1e6 : 1e9;
                res.avg = score * k;
                res.avgErr = err * k;
            } else if (mode.equals("thrpt")) {
                double k = unit.endsWith("/ns") ? 1e9 : unit.endsWith("/us") ? 1e6 : unit.endsWith("/ms") ? 1e3 : 1;
                res.thrpt = score * k;
                res.thrptErr = err * k;
                thrptMeasured = true;
            }
            jdk = o.get("vmName").getAsString() + " " + o.get("jdkVersion").getAsString() + " (" + o.get("vmVersion").getAsString() + ")";
            jmhVersion = o.has("jmhVersion") ? o.get("jmhVersion").getAsString() : "?";
            jmhSettings = o.get("forks").getAsInt() + " fork(s), " + o.get("warmupIterations").getAsInt() + " × "
                    + o.get("warmupTime").getAsString() + " warm-up, " + o.get("measurementIterations").getAsInt() + " × "
                    + o.get("measurementTime").getAsString() + " measurement";
        }
    }

    Result get(String machine, String id, int threads) {
        Map<String, Map<Integer, Result>> m = data.get(machine);
        if (m == null || !m.containsKey(id)) {
            return null;
        }
        Result r = m.get(id).get(threads);
        return r == null || Double.isNaN(r.avg) ? null : r;
    }

    /** Total calls per second over all threads: measured throughput, else threads / avg time. */
    static double callsPerSecond(Result r) {
        if (!Double.isNaN(r.thrpt)) {
            return r.thrpt;
        }
        return r.threads * 1e9 / r.avg;
    }

    static String ns(Result r) {
        if (r == null) {
            return "–";
        }
        String v = fmt(r.avg);
        return Double.isNaN(r.avgErr) ? v : v + " ± " + fmt(r.avgErr);
    }

    static String fmt(double v) {
        if (Double.isNaN(v)) {
            return "–";
        }
        if (v >= 100) {
            return String.format(Locale.ROOT, "%.0f", v);
        }
        if (v >= 10) {
            return String.format(Locale.ROOT, "%.1f", v);
        }
        return String.format(Locale.ROOT, "%.2f", v);
    }

    static String mcalls(double perSecond) {
        return String.format(Locale.ROOT, "%.1f", perSecond / 1e6);
    }

    String render(Path docs, JsonObject startup, String mode) throws IOException {
        StringBuilder b = new StringBuilder();
        b.append("# fastclock benchmarks\n\n");
        b.append("Generated by `benchmarks/run.sh --").append(mode).append("` (").append("`io.fastclock.bench.report.ReportGenerator`")
                .append(" from the raw JMH JSON in `benchmarks/results/`). Do not edit by hand: rerun the script.\n\n");
        b.append("## Machine\n\n");
        b.append("| | |\n|---|---|\n");
        b.append("| date | ").append(ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME)).append(" |\n");
        b.append("| CPU | ").append(Runtime.getRuntime().availableProcessors()).append(" × ").append(cpuModel()).append(" |\n");
        b.append("| kernel | ").append(read("/proc/sys/kernel/osrelease")).append(" |\n");
        b.append("| clocksource | ").append(read("/sys/devices/system/clocksource/clocksource0/current_clocksource"))
                .append(" (available: ").append(read("/sys/devices/system/clocksource/clocksource0/available_clocksource")).append(") |\n");
        if (coarseTickNs > 0) {
            b.append("| coarse clock tick | ").append(millis(coarseTickNs)).append(" (clock_getres(CLOCK_REALTIME_COARSE), recorded by run.sh) |\n");
        }
        b.append("| JDK | ").append(jdk).append(" |\n");
        b.append("| JMH | ").append(jmhVersion).append(", ").append(jmhSettings).append(", errors are JMH's 99.9% confidence half-width (± score error) |\n\n");
        b.append("Three \"machines\" in one run, the same JMH suite each time:\n\n");
        for (String m : MACHINES) {
            b.append("- **").append(m).append("**: ").append(MACHINE_TEXT.get(m)).append(data.containsKey(m) ? "" : " — *not run*").append('\n');
        }
        if (data.containsKey("sim-hpet500-serial")) {
            b.append("\nOnly sim-hpet500-serial serialises fine reads across threads, as HPET does machine-wide; the "
                    + "multi-thread rows of the other simulated machines are optimistic for the system clocks.\n\n");
        } else {
            b.append("\nThe simulator here did not serialise reads (sim-hpet500-serial not run), so the multi-thread "
                    + "rows under it are optimistic for the system clocks.\n\n");
        }
        if (!thrptMeasured) {
            b.append("This is a `--quick` run: only JMH's average-time mode was measured; total calls/s are derived as "
                    + "threads × 10⁹ / (ns per call). `--full` measures throughput mode as well.\n\n");
        }

        headlines(b, startup);

        int one = 1;
        int max = Runtime.getRuntime().availableProcessors();
        b.append("## All clocks, 1 thread (ns per call, lower is better)\n\n");
        clockTable(b, one);
        b.append("![ns per call, 1 thread](img/clocks-1thread.png)\n\n");
        if (threadCounts.contains(max) && max != one) {
            b.append("## All clocks measured at ").append(max).append(" threads (all cores): ns per call in each thread\n\n");
            clockTable(b, max);
        }
        chartClocks(docs.resolve("img/clocks-1thread.png"), one);

        b.append("## Scaling: ns per call (per thread) and total calls/s (millions) for 1..").append(threadCounts.isEmpty() ? 0 : threadCounts.last())
                .append(" threads\n\n");
        scaling(b, docs);

        limitSection(b);

        b.append("## What each clock gives up\n\n| clock | gives up |\n|---|---|\n");
        for (Row r : ROWS) {
            b.append("| ").append(r.name).append(" | ").append(semantics(r)).append(" |\n");
        }
        b.append("\nOpenHFT `net.openhft.ticker.Ticker` on this machine: **").append(tickerImpl()).append("**");
        if (tickerImpl().endsWith("JNIClock")) {
            b.append(" — its JNI rdtsc path, with a stand-in `libCEInternals` that `run.sh` builds from "
                    + "`benchmarks/src/main/c/ceinternals_standin.c` (Chronicle's library is not on Maven Central): the same "
                    + "JNI functions, a plain unordered `rdtsc` as in OpenHFT's published C. fastclock's TSC read is ordered "
                    + "(`rdtscp`), which costs a few ns more and is what keeps it from being read ahead of earlier loads");
        } else if (tickerImpl().endsWith("SystemClock")) {
            b.append(" — its JNI rdtsc (`JNIClock`) needs `libCEInternals` from the commercial Chronicle Enterprise, "
                    + "absent from Maven Central, so the ticker falls back to `System.nanoTime()` and its rows measure the system clock");
        }
        b.append(".\n\n");

        if (startup != null) {
            AgentCostSection.render(b, startup, attach, docs);
        }
        b.append("## How to reproduce\n\n```\nbenchmarks/run.sh --quick   # or --full\n```\n\n"
                + "It builds with `mvn -B -q -Pbench -DskipTests package` (the `bench` profile of the root pom; the default build "
                + "skips this module), runs the JMH suite (`benchmarks/target/benchmarks.jar`) on the three machines, writes the raw "
                + "JMH JSON to `benchmarks/results/<machine>.json`, runs `io.fastclock.bench.StartupCost` "
                + "(`benchmarks/results/startup.json`) and `io.fastclock.bench.AttachCost` (`benchmarks/results/attach.json`), "
                + "with `--old REV` also for the agent built from commit REV, and regenerates this page and `docs/img/*.png`. Single benchmarks: "
                + "`java -jar benchmarks/target/benchmarks.jar FastClockBench -p backend=tsc -t 2`; under the simulator prefix "
                + "`LD_PRELOAD=native/target/libslowclock.so SLOWCLOCK_SPIN_NS=500`.\n");
        return b.toString();
    }

    /**
     * fastclock's JNI reads against their limit on each machine: the JNI no-op (JMH) plus the read
     * timed in C (machine.json), and the same read through JNI with no clock logic (JMH).
     */
    private void limitSection(StringBuilder b) {
        if (machineInfo == null || !machineInfo.has("readNanosInC")) {
            return;
        }
        JsonObject inC = machineInfo.getAsJsonObject("readNanosInC");
        String nanosRead = machineInfo.get("tscNanosRead").getAsString();
        String millisRead = machineInfo.get("tscMillisRead").getAsString();
        Map<String, String> limitRow = Map.of("RDTSCP", "limit.rdtscp", "LFENCE_RDTSC", "limit.lfence",
                "MFENCE_RDTSC", "limit.mfence", "RDTSC", "limit.rdtsc", "REALTIME_COARSE", "limit.coarse");
        String[][] clocks = {
            {"fc.nanos.tsc", nanosRead, "fastclock nanos [tsc]"},
            {"fc.millis.tsc", millisRead, "fastclock millis [tsc]"},
            {"fc.millis.coarse", "REALTIME_COARSE", "fastclock millis [coarse]"},
        };
        b.append("## Against the limit, 1 thread (ns per call)\n\n");
        b.append("LIMIT = a JNI call that does nothing (JMH, `LimitBench.jniNoop`) + the read timed in C (`machine.json`, "
                + "best of 7 × 20k reads). \"JNI + read\" is the same read through JNI with no clock logic (JMH). The TSC "
                + "clock here reads `").append(nanosRead).append("` for nanoTime and `").append(millisRead)
                .append("` for currentTimeMillis (chosen at start-up: the cheapest ordered read the CPU documents; "
                        + "an unordered read for millis).\n\n");
        b.append("| clock | machine | fastclock | read | in C | LIMIT | JNI + read | over LIMIT |\n|---|---|---:|---|---:|---:|---:|---:|\n");
        for (String m : MACHINES) {
            Result noop = get(m, "limit.noop", 1);
            if (noop == null) {
                continue;
            }
            for (String[] c : clocks) {
                Result fc = get(m, c[0], 1);
                if (fc == null || !inC.has(c[1])) {
                    continue;
                }
                double limit = noop.avg + inC.get(c[1]).getAsDouble();
                b.append("| ").append(c[2]).append(" | ").append(m).append(" | ").append(fmt(fc.avg)).append(" | ").append(c[1])
                        .append(" | ").append(fmt(inC.get(c[1]).getAsDouble())).append(" | ").append(fmt(limit)).append(" | ")
                        .append(ns(get(m, limitRow.get(c[1]), 1))).append(" | ")
                        .append(String.format(Locale.ROOT, "%+.0f%%", (fc.avg / limit - 1) * 100)).append(" |\n");
            }
        }
        b.append("\nThe C timing of a coarse read on a simulated machine is the real vDSO one (the simulator passes "
                + "the coarse clocks through), so its LIMIT is the same on every machine.\n\n");
    }

    /** A row's semantics with the coarse tick filled in: this machine's, when run.sh recorded it, else in general. */
    String semantics(Row r) {
        String tick;
        String lag;
        if (coarseTickNs > 0) {
            tick = "clock_getres: " + millis(coarseTickNs) + " on the benchmarked machine";
            lag = " (" + millis(2 * coarseTickNs) + ")";
        } else {
            tick = "1 ms at CONFIG_HZ=1000, 4 ms at 250, 10 ms at 100; clock_getres tells";
            lag = "";
        }
        return r.semantics.replace(TICK, tick).replace(LAG, lag);
    }

    static String millis(long nanos) {
        double ms = nanos / 1e6;
        return (ms == Math.rint(ms) ? String.format(Locale.ROOT, "%.0f", ms) : String.format(Locale.ROOT, "%.3g", ms)) + " ms";
    }

    private void headlines(StringBuilder b, JsonObject startup) {
        b.append("## Headline ratios (1 thread unless stated)\n\n| ratio | machine | value | target | met? |\n|---|---|---|---|---|\n");
        for (String m : new String[] {"sim-syscall", "sim-hpet500", "tsc"}) {
            ratio(b, "System.currentTimeMillis / fastclock coarse millis", m, "sys.millis", "fc.millis.coarse", 20, true);
            ratio(b, "System.currentTimeMillis / fastclock tsc millis", m, "sys.millis", "fc.millis.tsc", 20, true);
            ratio(b, "System.nanoTime / fastclock tsc nanos", m, "sys.nanos", "fc.nanos.tsc", 20, true);
        }
        for (String m : MACHINES) {
            // The target (no slower than OpenHFT's JNI ticker) means something only when its rdtsc path ran.
            ratio(b, "OpenHFT Ticker.ticks / fastclock tsc nanos", m, "hft.ticks", "fc.nanos.tsc",
                    tickerImpl().endsWith("JNIClock") ? 1 : Double.NaN, true);
        }
        for (String m : MACHINES) {
            ratio(b, "fastclock coarse millis / Log4j2 CachedClock", m, "fc.millis.coarse", "log4j.cached", 2, false, 1);
        }
        int all = Runtime.getRuntime().availableProcessors();
        if (all > 1) {
            for (String m : MACHINES) {
                ratio(b, "fastclock coarse millis / Log4j2 CachedClock, " + all + " threads", m, "fc.millis.coarse", "log4j.cached", 2, false, all);
            }
        }
        AgentCostSection.headlines(b, startup, attach);
        b.append("\nA ratio above 1 in the first rows means fastclock is that many times faster. \"within 2x\" means "
                + "fastclock's cost is at most twice the peer's. Start-up shares are the agent's median hello-world wall time "
                + "(or the main thread's time before main) above a JVM with an empty agent (a premain that does nothing).\n\n");
    }

    private void ratio(StringBuilder b, String what, String machine, String num, String den, double target, boolean higherBetter) {
        ratio(b, what, machine, num, den, target, higherBetter, 1);
    }

    private void ratio(StringBuilder b, String what, String machine, String num, String den, double target, boolean higherBetter, int threads) {
        Result n = get(machine, num, threads);
        Result d = get(machine, den, threads);
        if (n == null || d == null) {
            return;
        }
        double r = n.avg / d.avg;
        String tgt;
        String met;
        if (Double.isNaN(target)) {
            tgt = "–";
            met = "–";
        } else if (higherBetter) {
            tgt = "≥ " + fmt(target) + "×";
            boolean autoStaysOff = machine.equals("tsc") && what.startsWith("System.");
            met = autoStaysOff ? "n/a (auto stays off here)" : (r >= target ? "yes" : "**no**");
        } else {
            tgt = "≤ " + fmt(target) + "×";
            met = r <= target ? "yes" : "**no**";
        }
        b.append("| ").append(what).append(" | ").append(machine).append(" | ").append(String.format(Locale.ROOT, "%.1f×", r))
                .append(" (").append(fmt(n.avg)).append(" / ").append(fmt(d.avg)).append(" ns)").append(" | ").append(tgt)
                .append(" | ").append(met).append(" |\n");
    }

    static double median(JsonObject group, String config, String metric) {
        return group.getAsJsonObject(config).getAsJsonObject(metric).get("median").getAsDouble();
    }

    private void clockTable(StringBuilder b, int threads) {
        b.append("| clock |");
        for (String m : MACHINES) {
            if (data.containsKey(m)) {
                b.append(' ').append(m).append(" |");
            }
        }
        b.append("\n|---|");
        for (String m : MACHINES) {
            if (data.containsKey(m)) {
                b.append("---:|");
            }
        }
        b.append('\n');
        for (Row r : ROWS) {
            StringBuilder line = new StringBuilder("| " + r.name + " |");
            boolean any = false;
            for (String m : MACHINES) {
                if (data.containsKey(m)) {
                    Result res = get(m, r.id, threads);
                    any |= res != null;
                    line.append(' ').append(ns(res)).append(" |");
                }
            }
            if (any) {
                b.append(line).append('\n');
            }
        }
        b.append('\n');
    }

    private void scaling(StringBuilder b, Path docs) throws IOException {
        Map<String, String> names = new LinkedHashMap<>();
        for (Row r : ROWS) {
            names.put(r.id, r.name);
        }
        b.append("| clock | machine |");
        for (int t : threadCounts) {
            b.append(' ').append(t).append(t == 1 ? " thread" : " threads").append(" |");
        }
        b.append("\n|---|---|");
        for (int ignored : threadCounts) {
            b.append("---:|");
        }
        b.append('\n');
        for (String id : SCALING) {
            for (String m : MACHINES) {
                if (!data.containsKey(m)) {
                    continue;
                }
                b.append("| ").append(names.get(id)).append(" | ").append(m).append(" |");
                for (int t : threadCounts) {
                    Result r = get(m, id, t);
                    b.append(' ').append(r == null ? "–" : fmt(r.avg) + " ns, " + mcalls(callsPerSecond(r)) + " M/s").append(" |");
                }
                b.append('\n');
            }
        }
        b.append("\nThis VM has ").append(Runtime.getRuntime().availableProcessors())
                .append(" vCPUs: above that, threads time-share and per-call times include waiting for a CPU; total calls/s is the figure that matters there.\n\n");
        chartScaling(docs.resolve("img/scaling-millis.png"), "currentTimeMillis: total calls/s", new String[] {"sys.millis", "fc.millis.coarse"}, names);
        chartScaling(docs.resolve("img/scaling-nanos.png"), "nanoTime: total calls/s", new String[] {"sys.nanos", "fc.nanos.tsc"}, names);
        b.append("![scaling, millis](img/scaling-millis.png)\n![scaling, nanos](img/scaling-nanos.png)\n\n");
    }

    private void chartClocks(Path png, int threads) throws IOException {
        CategoryChart chart = new CategoryChartBuilder().width(1400).height(700)
                .title("ns per call, " + threads + " thread (log scale; JMH error bars are in the tables)").xAxisTitle("").yAxisTitle("ns per call").build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        chart.getStyler().setXAxisLabelRotation(60);
        chart.getStyler().setYAxisLogarithmic(true);
        chart.getStyler().setErrorBarsColor(java.awt.Color.BLACK);
        chart.getStyler().setYAxisMin(0.1); // bars otherwise start the axis at 0, which a log axis refuses
        chart.getStyler().setYAxisDecimalPattern("#,##0.#");
        for (String m : MACHINES) {
            if (!data.containsKey(m)) {
                continue;
            }
            List<String> x = new ArrayList<>();
            List<Double> y = new ArrayList<>();
            List<Double> e = new ArrayList<>();
            for (Row r : ROWS) {
                Result res = get(m, r.id, threads);
                x.add(r.name);
                if (res == null) {
                    System.err.println("ReportGenerator: no 1-thread result for " + r.id + " on " + m);
                }
                y.add(res == null ? null : res.avg);
                e.add(res == null || Double.isNaN(res.avgErr) ? 0.0 : Math.min(res.avgErr, res.avg * 0.99));
            }
            // XChart draws error bars wrongly on a logarithmic axis, so the chart has none.
            chart.addSeries(m, x, y);
        }
        BitmapEncoder.saveBitmap(chart, png.toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    private void chartScaling(Path png, String title, String[] ids, Map<String, String> names) throws IOException {
        XYChart chart = new XYChartBuilder().width(900).height(550).title(title).xAxisTitle("threads")
                .yAxisTitle("million calls/s (all threads, log scale)").build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
        chart.getStyler().setYAxisLogarithmic(true);
        chart.getStyler().setYAxisDecimalPattern("#,##0.#");
        chart.getStyler().setXAxisDecimalPattern("0");
        for (String id : ids) {
            for (String m : MACHINES) {
                List<Double> x = new ArrayList<>();
                List<Double> y = new ArrayList<>();
                for (int t : threadCounts) {
                    Result r = get(m, id, t);
                    if (r != null) {
                        x.add((double) t);
                        y.add(callsPerSecond(r) / 1e6);
                    }
                }
                if (!x.isEmpty()) {
                    chart.addSeries(names.get(id) + " — " + m, x, y);
                }
            }
        }
        if (!chart.getSeriesMap().isEmpty()) {
            BitmapEncoder.saveBitmap(chart, png.toString(), BitmapEncoder.BitmapFormat.PNG);
        }
    }

    private static String tickerImpl() {
        try {
            return PeerClockBench.tickerImpl();
        } catch (Throwable t) {
            return "unknown (" + t + ")";
        }
    }

    private static String cpuModel() {
        for (String line : read("/proc/cpuinfo").split("\n")) {
            if (line.startsWith("model name")) {
                return line.substring(line.indexOf(':') + 1).trim();
            }
        }
        return "?";
    }

    private static String read(String path) {
        try {
            return Files.readString(Path.of(path)).strip();
        } catch (IOException | RuntimeException e) {
            return "?";
        }
    }
}
