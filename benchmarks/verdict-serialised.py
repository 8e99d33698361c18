#!/usr/bin/env python3
"""How long after main the verdict comes at the defaults under the HPET-like simulator (every fine read
serialised across the process, SLOWCLOCK_SPIN_NS=500 SLOWCLOCK_SERIALIZE=1), with 0, 1 and 2 threads
of the program reading both clocks from main's first instruction; the jars in turn every round.

  benchmarks/verdict-serialised.py RUNS JAVA AGENT.jar [OLD_AGENT.jar]

Prints, per jar and readers: the verdict's ms after main (median, max) and how many runs came out
active. Needs benchmarks/target/benchmarks.jar (mvn -B -q -Pbench -DskipTests package).
"""
import os, statistics, subprocess, sys, tempfile, zipfile

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
n = int(sys.argv[1]); java = sys.argv[2]
jars = [("new", os.path.abspath(sys.argv[3]))] + ([("old", os.path.abspath(sys.argv[4]))] if len(sys.argv) > 4 else [])
work = tempfile.mkdtemp(prefix="verdict-serialised")
with zipfile.ZipFile(os.path.join(root, "benchmarks/target/benchmarks.jar")) as z:
    for name in z.namelist():
        if name.startswith("io/fastclock/bench/startup/"):
            z.extract(name, os.path.join(work, "app"))
env = {k: v for k, v in os.environ.items() if not k.startswith("FASTCLOCK_") and k != "JAVA_TOOL_OPTIONS"}
env.update({"LD_PRELOAD": os.path.join(root, "native/target/libslowclock.so"), "SLOWCLOCK_SPIN_NS": "500",
            "SLOWCLOCK_SERIALIZE": "1"})
results = {}
for r in range(n):
    for readers in (0, 1, 2):
        for label, jar in jars:
            out = subprocess.run([java, "-javaagent:" + jar, "-cp", os.path.join(work, "app"),
                                  "io.fastclock.bench.startup.VerdictTime", "await", str(readers)],
                                 env=env, capture_output=True, text=True, timeout=60).stdout.split()
            main = float(out[1])
            verdict = None if out[3] == "none" else float(out[3]) - main
            active = len(out) > 4 and out[4] == "true"
            results.setdefault((label, readers), []).append((verdict, active))
print("%-6s %8s %14s %10s %8s" % ("jar", "readers", "verdict med ms", "max ms", "active"))
for (label, readers), runs in sorted(results.items()):
    v = [x for x, _ in runs if x is not None]
    print("%-6s %8d %14s %10s %5d/%d" % (label, readers, "%.0f" % statistics.median(v) if v else "-",
          "%.0f" % max(v) if v else "-", sum(1 for _, a in runs if a), len(runs)))
