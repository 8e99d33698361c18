#!/usr/bin/env python3
"""Start-up A/B of agent jars, alternating runs: wall, CPU (user+sys of the child) and Create VM.

  benchmarks/startup-ab.py RUNS JAVA AGENT.jar[=ARGS] [AGENT2.jar[=ARGS] ...]

An agent given as JAR=ARGS runs with those agent arguments (say fastclock.jar=start=background), so
one jar can be measured with and without a setting in the same run.

Configurations, run in turn every round (round 0 is an untimed warm-up): an empty agent, each jar
on this machine as it is (auto: inactive on a tsc clocksource), then the same under the simulator
(LD_PRELOAD=native/target/libslowclock.so, SLOWCLOCK_SPIN_NS=0: auto activates). The child is the
benchmarks' Hello (calls both clocks). CPU time is less sensitive to a busy machine than wall time;
Create VM (-Xlog:startuptime) includes premain but not the rewriting of Hello: it is the time the main
thread spends before main. VmHWM is the child's peak RSS as Hello reads it at its end. Needs
benchmarks/target/benchmarks.jar (mvn -B -q -Pbench -DskipTests package).
"""
import os, statistics, subprocess, sys, tempfile, time, zipfile

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
n = int(sys.argv[1]); java = sys.argv[2]
jars = [(os.path.abspath(a.split("=", 1)[0]) + ("=" + a.split("=", 1)[1] if "=" in a else "")) for a in sys.argv[3:]]
sim = os.path.join(root, "native/target/libslowclock.so")
work = tempfile.mkdtemp(prefix="startup-ab")
with zipfile.ZipFile(os.path.join(root, "benchmarks/target/benchmarks.jar")) as z:
    for name in z.namelist():
        if name.startswith("io/fastclock/bench/startup/"):
            z.extract(name, os.path.join(work, "app"))
empty = os.path.join(work, "empty.jar")
with zipfile.ZipFile(empty, "w") as z:
    z.writestr("META-INF/MANIFEST.MF", "Manifest-Version: 1.0\nPremain-Class: io.fastclock.bench.startup.EmptyAgent\n\n")
    z.write(os.path.join(work, "app/io/fastclock/bench/startup/EmptyAgent.class"), "io/fastclock/bench/startup/EmptyAgent.class")
configs = [("empty agent", False, ["-javaagent:" + empty])]
configs += [(os.path.basename(j) + " (inactive)", False, ["-javaagent:" + j]) for j in jars]
configs += [("sim: empty agent", True, ["-javaagent:" + empty])]
configs += [("sim: " + os.path.basename(j) + " (active)", True, ["-javaagent:" + j]) for j in jars]
results = {c[0]: ([], [], [], []) for c in configs}

def run(config):
    name, simulated, args = config
    env = dict(os.environ)
    env.pop("JAVA_TOOL_OPTIONS", None)
    env.pop("LD_PRELOAD", None)
    if simulated:
        env["LD_PRELOAD"] = sim
        env["SLOWCLOCK_SPIN_NS"] = "0"
    t0 = time.monotonic()
    p = subprocess.Popen([java, "-Xlog:startuptime"] + args + ["-cp", os.path.join(work, "app"),
                          "io.fastclock.bench.startup.Hello"], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out = p.stdout.read(); err = p.stderr.read()
    _, status, usage = os.wait4(p.pid, 0)
    wall = (time.monotonic() - t0) * 1e3
    if status != 0:
        sys.exit("%s failed: %s" % (name, err.decode()[:500]))
    create_vm = float("nan")
    peak_mb = float("nan")
    for line in out.decode().splitlines():
        if "Create VM," in line:
            create_vm = float(line.split("Create VM,")[1].split()[0]) * 1e3
        elif line.startswith("rss "):
            peak_mb = int(line.split()[1]) / 1024.0
    return wall, (usage.ru_utime + usage.ru_stime) * 1e3, create_vm, peak_mb

for r in range(n + 1):
    for c in configs:
        measured = run(c)
        if r > 0:
            for i in range(4):
                results[c[0]][i].append(measured[i])
print("%-44s %9s %7s %9s %7s %11s %7s %9s" % ("ms", "wall med", "min", "CPU med", "min", "CreateVM med", "min", "VmHWM MB"))
for c in configs:
    w, cpu, cv, hwm = results[c[0]]
    print("%-44s %9.1f %7.1f %9.1f %7.1f %11.1f %7.1f %9.1f" % (c[0], statistics.median(w), min(w),
          statistics.median(cpu), min(cpu), statistics.median(cv), min(cv), statistics.median(hwm)))
