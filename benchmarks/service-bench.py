#!/usr/bin/env python3
"""A real service under a slow clocksource, with and without fastclock, beside the fast machine.

  benchmarks/service-bench.py [--rounds N] [--seconds S] [--warmup S] [--loads quiet,busy] [--old JAR]
  benchmarks/service-bench.py --apm otel,elastic,datadog [--rounds N] [--loads quiet]

The service is io.fastclock.bench.service.ServiceApp (Undertow; a Micrometer and a Dropwizard timer and
a Logback access line on every request), loaded by wrk (-t2 -c32, Debian package "wrk") on this machine.
Configurations, run in turn every round, in an order that rotates from round to round:
  fast machine            no simulator, no agent (this host's vDSO clocks)
  slow clock              LD_PRELOAD=libslowclock.so, SLOWCLOCK_SPIN_NS=500, SLOWCLOCK_SERIALIZE=1:
                          every fine read a system call plus 500 ns, one at a time in the process (HPET-like)
  slow clock + fastclock  the same, -javaagent:agent/target/fastclock.jar at its defaults
  slow clock + OLD        the same with the agent jar given by --old (an earlier build), if given
  --unserialized, --queued the slow clock serialised otherwise (see --help), without and with fastclock
  --apm LIST              also the slow clock beside each APM agent (otel, elastic, datadog: from the -Pbench
                          build's benchmarks/target/apm/, each reporting nowhere), without and with fastclock
                          after it; written to service-apm.json and service-apm.md instead
Loads: quiet (nothing else running), busy (two processes spinning on the CPUs meanwhile, as on a host
where services start together). Per run: requests/s, p50 and p99 latency (wrk --latency), CPU of the
service per request over the measured window (/proc/PID/stat), and slow reads per request (the
simulator's count over the service's whole life, warm-up included, divided by the requests it served).
Writes benchmarks/results/service.json and benchmarks/results/service.md, or with --apm service-apm.json
and service-apm.md (docs/BENCHMARKS.md includes both: benchmarks/run.sh --report-only). Needs
benchmarks/target/benchmarks.jar (mvn -B -q -Pbench -DskipTests package) and native/target/libslowclock.so
(mvn -B -q -DskipTests package).
"""
import argparse, json, os, re, signal, socket, statistics, subprocess, sys, tempfile, time, zipfile

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ap = argparse.ArgumentParser()
ap.add_argument("--rounds", type=int, default=4)
ap.add_argument("--seconds", type=int, default=10)
ap.add_argument("--warmup", type=int, default=8)
ap.add_argument("--loads", default="quiet,busy")
ap.add_argument("--old", default=None, help="an earlier fastclock.jar, measured beside this one")
ap.add_argument("--old-name", default="old")
ap.add_argument("--unserialized", action="store_true",
                help="also the slow clock without SLOWCLOCK_SERIALIZE, with and without fastclock: what the residual reads "
                     "cost where a reader preempted inside the simulator's lock does not hold up the others")
ap.add_argument("--queued", action="store_true",
                help="also the slow clock with SLOWCLOCK_SERIALIZE=queue, with and without fastclock: reads still one per "
                     "turn, but a reader preempted in its turn holds up no other reader, as with a real HPET")
ap.add_argument("--apm", default=None, help="otel,elastic,datadog: the service beside each APM agent, without and with "
                "fastclock (written to service-apm.json and service-apm.md)")
ap.add_argument("--note", default="", help="a sentence on where the figures were taken, for the page")
ap.add_argument("--java", default=os.environ.get("JAVA", "java"))
args = ap.parse_args()

bench_jar = os.path.join(root, "benchmarks/target/benchmarks.jar")
agent = os.path.join(root, "agent/target/fastclock.jar")
sim = os.path.join(root, "native/target/libslowclock.so")
for f in (bench_jar, agent, sim):
    if not os.path.isfile(f):
        sys.exit("service-bench: %s missing (see --help)" % f)
if subprocess.run(["sh", "-c", "command -v wrk"], capture_output=True).returncode != 0:
    sys.exit("service-bench: wrk not found (apt-get install -y wrk)")
work = tempfile.mkdtemp(prefix="service-bench")
# Run from copies: a rebuild meanwhile cannot mix versions.
subprocess.run(["cp", bench_jar, agent, work], check=True)
bench_jar = os.path.join(work, "benchmarks.jar")
agent = os.path.join(work, "fastclock.jar")
SIM = {"LD_PRELOAD": sim, "SLOWCLOCK_SPIN_NS": "500", "SLOWCLOCK_SERIALIZE": "1", "SLOWCLOCK_COUNT_THREAD": "none"}
FASTCLOCK = ["-javaagent:" + agent]
# Each APM agent as a service runs it, minus the backend it would report to: spans are made and dropped.
APM = {
    "otel": ("OpenTelemetry", ["-Dotel.traces.exporter=none", "-Dotel.metrics.exporter=none", "-Dotel.logs.exporter=none"]),
    "elastic": ("Elastic APM", ["-Delastic.apm.disable_send=true", "-Delastic.apm.central_config=false",
                                "-Delastic.apm.log_level=error", "-Delastic.apm.service_name=service"]),
    "datadog": ("Datadog", ["-Ddd.service=service", "-Ddd.agent.host=127.0.0.1", "-Ddd.profiling.enabled=false",
                            "-Ddd.jmxfetch.enabled=false", "-Ddd.instrumentation.telemetry.enabled=false",
                            "-Ddd.remote_config.enabled=false", "-Ddd.trace.startup.logs=false"]),
}
configs = [("fast machine", {}, []), ("slow clock", SIM, []), ("slow clock + fastclock", SIM, FASTCLOCK)]
if args.old:
    configs.append(("slow clock + fastclock " + args.old_name, SIM, ["-javaagent:" + os.path.abspath(args.old)]))
if args.unserialized:
    UNSERIALIZED = dict(SIM, SLOWCLOCK_SERIALIZE="0")
    configs += [("unserialized slow clock", UNSERIALIZED, []), ("unserialized slow clock + fastclock", UNSERIALIZED, FASTCLOCK)]
if args.queued:
    QUEUED = dict(SIM, SLOWCLOCK_SERIALIZE="queue")
    configs += [("queued slow clock", QUEUED, []), ("queued slow clock + fastclock", QUEUED, FASTCLOCK)]
apm_versions = {}
for key in (args.apm.split(",") if args.apm else []):
    if key not in APM:
        sys.exit("service-bench: --apm takes %s, not %s" % (",".join(APM), key))
    jar = os.path.join(root, "benchmarks/target/apm/%s.jar" % key)
    if not os.path.isfile(jar):
        sys.exit("service-bench: %s missing (mvn -B -q -Pbench -DskipTests package copies the APM agents there)" % jar)
    with zipfile.ZipFile(jar) as z:
        version = re.search(r"Implementation-Version: (\S+)", z.read("META-INF/MANIFEST.MF").decode()).group(1)
    name = "%s %s" % (APM[key][0], version)
    apm_versions[name] = key
    with_apm = ["-javaagent:" + jar] + APM[key][1]
    configs += [("slow clock + " + name, SIM, with_apm), ("slow clock + %s + fastclock" % name, SIM, with_apm + FASTCLOCK)]
CLK_TCK = os.sysconf("SC_CLK_TCK")


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def cpu_ticks(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime, stime (the 14th and 15th fields)


def wrk(port, seconds):
    out = subprocess.run(["wrk", "-t2", "-c32", "-d%ds" % seconds, "--latency", "http://127.0.0.1:%d/" % port],
                         capture_output=True, text=True, timeout=seconds + 60).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    total = int(re.search(r"(\d+) requests in", out).group(1))
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)|Socket errors", out)
    lat = {}
    for pct in ("50%", "99%"):
        m = re.search(r"^\s+%s\s+([\d.]+)(us|ms|s)\s*$" % re.escape(pct), out, re.M)
        v = float(m.group(1))
        lat[pct] = v * {"us": 1, "ms": 1000, "s": 1e6}[m.group(2)]
    return rps, total, lat, bool(errors), out


def run(config):
    name, env_extra, jvm_args = config
    port = free_port()
    stop = os.path.join(work, "stop-%d" % port)
    counts = os.path.join(work, "counts-%d" % port)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FASTCLOCK_", "SLOWCLOCK_")) and k not in ("LD_PRELOAD", "JAVA_TOOL_OPTIONS")}
    env.update(env_extra)
    if env_extra:
        env["SLOWCLOCK_COUNT"] = counts
    cmd = [args.java, "-Xms256m", "-Xmx256m"] + jvm_args + ["-cp", bench_jar, "io.fastclock.bench.service.ServiceApp", str(port), stop]
    err_path = os.path.join(work, "err-%d" % port)
    with open(err_path, "w") as err:
        p = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=err, text=True)
        for line in p.stdout:
            if line.strip() == "ready":
                break
        else:
            sys.exit("service-bench: %s did not start: %s" % (name, open(err_path).read()))
        wrk(port, args.warmup)
        c0 = cpu_ticks(p.pid)
        rps, total, lat, errors, out = wrk(port, args.seconds)
        c1 = cpu_ticks(p.pid)
        open(stop, "w").close()
        rest = p.communicate(timeout=60)[0]
    requests = int(re.search(r"requests=(\d+)", rest).group(1))
    slow = None
    if env_extra and os.path.isfile(counts):
        m = re.search(r"fine_reads_total=(\d+)", open(counts).read())
        slow = int(m.group(1)) / requests if m else None
    line = [l for l in open(err_path).read().splitlines() if l.startswith("fastclock:")]
    return {"rps": rps, "p50us": lat["50%"], "p99us": lat["99%"], "cpuUsPerRequest": (c1 - c0) / CLK_TCK * 1e6 / total,
            "slowReadsPerRequest": slow, "wrkErrors": errors, "agentLines": line}


def busy_loops():
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(2)]


results = {"java": args.java, "rounds": args.rounds, "seconds": args.seconds, "warmup": args.warmup,
           "wrk": "-t2 -c32", "cpus": os.cpu_count(), "simulator": "SLOWCLOCK_SPIN_NS=500 SLOWCLOCK_SERIALIZE=1",
           "loads": {}}
for load in args.loads.split(","):
    runs = {c[0]: [] for c in configs}
    spinners = busy_loops() if load == "busy" else []
    try:
        for r in range(args.rounds):
            order = configs[r % len(configs):] + configs[:r % len(configs)]
            for c in order:
                m = run(c)
                runs[c[0]].append(m)
                print("%-5s round %d %-28s %8.0f req/s p50 %7.0f us p99 %7.0f us cpu %6.1f us/req slow %s %s" % (
                    load, r + 1, c[0], m["rps"], m["p50us"], m["p99us"], m["cpuUsPerRequest"],
                    "%.2f/req" % m["slowReadsPerRequest"] if m["slowReadsPerRequest"] is not None else "-",
                    m["agentLines"][:1]), flush=True)
    finally:
        for s in spinners:
            s.send_signal(signal.SIGKILL)
    results["loads"][load] = runs

out_name = "service-apm" if args.apm else "service"
with open(os.path.join(root, "benchmarks/results/%s.json" % out_name), "w") as f:
    json.dump(results, f, indent=1)


def med(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


md = ["## The service beside APM agents, under a slow clock" if args.apm else "## A service under a slow clock", "",
      ("`benchmarks/service-bench.py --apm %s`: " % args.apm if args.apm else "`benchmarks/service-bench.py`: ")
      + "Undertow, a Micrometer and a Dropwizard timer and a Logback line per request; "
      "wrk %s, %d CPUs; %d alternating rounds of %d s after %d s of warm-up; slow clock: the simulator, %s. Medians; "
      "x fast: against the fast machine's req/s; slow reads: the simulator's fine reads per request served."
      % (results["wrk"], os.cpu_count(), args.rounds, args.seconds, args.warmup, results["simulator"])
      + (" Unserialized: the same without SLOWCLOCK_SERIALIZE, so that a reader preempted inside the simulator's lock"
         " (a real HPET read cannot be) holds up no other reader." if args.unserialized else "")
      + (" Queued: SLOWCLOCK_SERIALIZE=queue, one read per 500 ns turn booked on an atomic, so that a reader"
         " preempted in its turn delays only itself." if args.queued else "")
      + " x fast by round: the median of each round's ratio to the fast machine's run in that round."
      + (" Each APM agent makes its spans and reports nowhere (its settings: service-bench.py); fastclock comes after it"
         " on the command line. x without: the median of each round's ratio to the same agent's run without fastclock"
         " in that round." if args.apm else "")
      + (" " + args.note if args.note else ""), ""]
for load, runs in results["loads"].items():
    md.append("| %s | req/s | x fast | x fast by round |%s p50 µs | p99 µs | CPU µs/req | slow reads/req | each round's req/s |"
              % (load, " x without |" if args.apm else ""))
    md.append("|---|---|---|---|%s---|---|---|---|---|" % ("---|" if args.apm else ""))
    fast_runs = [m["rps"] for m in runs["fast machine"]]
    fast = med(fast_runs)
    for name, ms in runs.items():
        slow = med([m["slowReadsPerRequest"] for m in ms])
        by_round = med([m["rps"] / f for m, f in zip(ms, fast_runs)])
        without = runs.get(name[:-len(" + fastclock")]) if name.endswith(" + fastclock") else None
        x_without = (" %.2f |" % med([m["rps"] / w["rps"] for m, w in zip(ms, without)]) if without else " - |") if args.apm else ""
        md.append("| %s | %.0f | %.2f | %.2f |%s %.0f | %.0f | %.1f | %s | %s |" % (
            name, med([m["rps"] for m in ms]), med([m["rps"] for m in ms]) / fast, by_round, x_without, med([m["p50us"] for m in ms]),
            med([m["p99us"] for m in ms]), med([m["cpuUsPerRequest"] for m in ms]),
            "%.2f" % slow if slow is not None else "-", " ".join("%.0f" % m["rps"] for m in ms)))
    md.append("")
with open(os.path.join(root, "benchmarks/results/%s.md" % out_name), "w") as f:
    f.write("\n".join(md) + "\n")
print("\n".join(md))
