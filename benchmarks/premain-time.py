#!/usr/bin/env python3
"""The main thread's time in the agent: from the JVM loading the agent's class to it loading the
application's main class (-Xlog:class+load with uptimenanos), alternating runs, medians. Less noisy
than whole-process timings: nothing before the agent or after main is counted.

  benchmarks/premain-time.py RUNS JAVA AGENT.jar [OLD_AGENT.jar]

Configurations: an empty agent; the agent at its defaults on this host and under the simulator
(LD_PRELOAD=native/target/libslowclock.so, SLOWCLOCK_SPIN_NS=0); mode=on; start=wait under the
simulator; OLD_AGENT's defaults on this host and under the simulator when given. The child is the
benchmarks' Hello. Needs benchmarks/target/benchmarks.jar (mvn -B -q -Pbench -DskipTests package).
"""
import os, re, statistics, subprocess, sys, tempfile, zipfile

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
n = int(sys.argv[1]); java = sys.argv[2]; jar = os.path.abspath(sys.argv[3])
old = os.path.abspath(sys.argv[4]) if len(sys.argv) > 4 else None
work = tempfile.mkdtemp(prefix="premain-time")
with zipfile.ZipFile(os.path.join(root, "benchmarks/target/benchmarks.jar")) as z:
    for name in z.namelist():
        if name.startswith("io/fastclock/bench/startup/"):
            z.extract(name, os.path.join(work, "app"))
empty = os.path.join(work, "empty.jar")
with zipfile.ZipFile(empty, "w") as z:
    z.writestr("META-INF/MANIFEST.MF", "Manifest-Version: 1.0\nPremain-Class: io.fastclock.bench.startup.EmptyAgent\n\n")
    z.write(os.path.join(work, "app/io/fastclock/bench/startup/EmptyAgent.class"), "io/fastclock/bench/startup/EmptyAgent.class")
sim = {"LD_PRELOAD": os.path.join(root, "native/target/libslowclock.so"), "SLOWCLOCK_SPIN_NS": "0"}
ENTRY = " io.fastclock.entry.AgentEntry "
cases = [("empty agent", ["-javaagent:" + empty], {}, " io.fastclock.bench.startup.EmptyAgent ")]
if old:
    cases += [("old, defaults", ["-javaagent:" + old], {}, ENTRY), ("old, defaults, simulator", ["-javaagent:" + old], sim, ENTRY)]
cases += [("defaults", ["-javaagent:" + jar], {}, ENTRY),
          ("defaults, simulator", ["-javaagent:" + jar], sim, ENTRY),
          ("mode=on", ["-javaagent:" + jar + "=mode=on"], {}, ENTRY),
          ("start=wait, simulator", ["-javaagent:" + jar + "=start=wait"], sim, ENTRY)]
log = os.path.join(work, "classes.log")


def ms(line):
    return int(re.match(r"\[(\d+)ns\]", line).group(1)) / 1e6


def once(args, extra, agent_class):
    env = {k: v for k, v in os.environ.items() if not k.startswith("FASTCLOCK_") and k not in ("LD_PRELOAD", "JAVA_TOOL_OPTIONS")}
    env.update(extra)
    subprocess.run([java, "-Xlog:class+load:file=%s:uptimenanos" % log] + args
                   + ["-cp", os.path.join(work, "app"), "io.fastclock.bench.startup.Hello"], env=env, capture_output=True, check=True)
    lines = open(log).read().splitlines()
    start = next(ms(l) for l in lines if agent_class in l)
    main = next(ms(l) for l in lines if " io.fastclock.bench.startup.Hello " in l)
    return main - start


results = {c[0]: [] for c in cases}
for r in range(n + 1):
    for name, args, extra, agent_class in cases:
        t = once(args, extra, agent_class)
        if r > 0:
            results[name].append(t)
base = statistics.median(results["empty agent"])
print("%-28s %9s %7s %9s" % ("ms, agent class -> main class", "median", "min", "Δ median"))
for name, *_ in cases:
    v = results[name]
    print("%-28s %9.2f %7.2f %+9.2f" % (name, statistics.median(v), min(v), statistics.median(v) - base))
