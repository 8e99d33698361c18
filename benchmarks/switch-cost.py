#!/usr/bin/env python3
"""A rewritten call site's cost once the verdict is in, two agent jars side by side: JMH's
SystemClockBench (System.currentTimeMillis, System.nanoTime, Instant.now) in a JVM with -javaagent at
its defaults under the simulator (LD_PRELOAD=native/target/libslowclock.so, SLOWCLOCK_SPIN_NS=0, so
auto activates), the jars in turn every round; ns per call, the median of the rounds, and NEW / OLD.

  benchmarks/switch-cost.py ROUNDS JAVA NEW_AGENT.jar OLD_AGENT.jar [sim|fast [AGENT_ARGS]]

With "fast", no simulator (on a tsc host the entry answers alone: nothing is rewritten). AGENT_ARGS go
to both jars: under the simulator, "millis=system,sysfs=DIR,procfs=DIR" with a fixture whose CPU flags
cannot be read makes the verdict inactive after premain rewrote the classes loaded meanwhile, and the
rows show what it leaves at their call sites (their bytes given back).

Needs benchmarks/target/benchmarks.jar (mvn -B -q -Pbench -DskipTests package).
"""
import json, os, statistics, subprocess, sys, tempfile

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
rounds = int(sys.argv[1]); java = sys.argv[2]
jars = {"new": os.path.abspath(sys.argv[3]), "old": os.path.abspath(sys.argv[4])}
bench = os.path.join(root, "benchmarks/target/benchmarks.jar")
env = {k: v for k, v in os.environ.items() if not k.startswith("FASTCLOCK_") and k != "JAVA_TOOL_OPTIONS"}
agent_args = "=" + sys.argv[6] if len(sys.argv) > 6 else ""
if len(sys.argv) <= 5 or sys.argv[5] != "fast":
    env.update({"LD_PRELOAD": os.path.join(root, "native/target/libslowclock.so"), "SLOWCLOCK_SPIN_NS": "0"})
out = tempfile.mktemp(suffix=".json")
results = {}
for r in range(rounds):
    for name in (["new", "old"] if r % 2 == 0 else ["old", "new"]):
        subprocess.run([java, "-jar", bench, "SystemClockBench", "-f", "1", "-wi", "3", "-w", "1", "-i", "5", "-r", "1",
                        "-bm", "avgt", "-tu", "ns", "-rf", "json", "-rff", out, "-jvmArgsAppend", "-javaagent:" + jars[name] + agent_args],
                       env=env, check=True, capture_output=True)
        for row in json.load(open(out)):
            results.setdefault(row["benchmark"].split(".")[-1], {}).setdefault(name, []).append(row["primaryMetric"]["score"])
print("%-20s %10s %10s %8s" % ("ns per call", "new", "old", "new/old"))
for bench_name, by in sorted(results.items()):
    n, o = statistics.median(by["new"]), statistics.median(by["old"])
    print("%-20s %10.2f %10.2f %8.3f   rounds new %s old %s" % (bench_name, n, o, n / o,
          ["%.2f" % v for v in by["new"]], ["%.2f" % v for v in by["old"]]))
