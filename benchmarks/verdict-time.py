#!/usr/bin/env python3
"""When main begins and when the agent's verdict comes, in ms after the process started, alternating runs.

  benchmarks/verdict-time.py RUNS JAVA AGENT.jar

Configurations, in turn every round (round 0 untimed): no agent, the agent as it is (start=wait) and
with start=background, each on this machine as it is (auto: inactive on a tsc clocksource) and under
the simulator (LD_PRELOAD=native/target/libslowclock.so, SLOWCLOCK_SPIN_NS=0: auto activates). The
child is the benchmarks' VerdictTime (its times are against the kernel's process start, whose clock
ticks every 10 ms). Needs benchmarks/target/benchmarks.jar (mvn -B -q -Pbench -DskipTests package).
"""
import os, statistics, subprocess, sys, tempfile, zipfile

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
n = int(sys.argv[1]); java = sys.argv[2]; jar = os.path.abspath(sys.argv[3])
sim = os.path.join(root, "native/target/libslowclock.so")
work = tempfile.mkdtemp(prefix="verdict-time")
with zipfile.ZipFile(os.path.join(root, "benchmarks/target/benchmarks.jar")) as z:
    for name in z.namelist():
        if name.startswith("io/fastclock/bench/startup/"):
            z.extract(name, os.path.join(work, "app"))
configs = []
for simulated in (False, True):
    prefix = "sim: " if simulated else ""
    configs += [(prefix + "no agent", simulated, []),
                (prefix + "start=wait", simulated, ["-javaagent:" + jar + "=start=wait"]),
                (prefix + "start=background", simulated, ["-javaagent:" + jar + "=start=background"])]
results = {c[0]: ([], []) for c in configs}

for r in range(n + 1):
    for name, simulated, args in configs:
        env = {k: v for k, v in os.environ.items() if k not in ("JAVA_TOOL_OPTIONS", "LD_PRELOAD")}
        if simulated:
            env["LD_PRELOAD"] = sim
            env["SLOWCLOCK_SPIN_NS"] = "0"
        out = subprocess.run([java] + args + ["-cp", os.path.join(work, "app"), "io.fastclock.bench.startup.VerdictTime"] + (["await"] if args else []),
                             env=env, capture_output=True, text=True).stdout.split()
        if r > 0:
            results[name][0].append(float(out[1]))
            if len(out) > 3 and out[3] != "none":
                results[name][1].append(float(out[3]))
print("%-26s %10s %10s %13s %7s" % ("ms after process start", "main med", "min", "verdict med", "min"))
for name, _, _ in configs:
    m, v = results[name]
    print("%-26s %10.0f %10.0f %13s %7s" % (name, statistics.median(m), min(m),
          "%.0f" % statistics.median(v) if v else "-", "%.0f" % min(v) if v else "-"))
