#!/usr/bin/env python3
"""premain-time.py's measure (the JVM loading the agent's class to it loading the main class) for an
empty agent, fastclock at its defaults under the simulator (the boot runtime set up before main), and
benchmarks/premain-floor/FloorAgent: only what that set-up cannot do without (the caller check,
redefineModule, the runtime's module and its classes from fastclock.jar, a transformer, a thread).
Alternating runs, medians, paired Δ as in premain-time.py. JDK 12+ (javac and java on the PATH or
given).

  benchmarks/premain-floor.py RUNS JAVA AGENT.jar
"""
import os, re, statistics, struct, subprocess, sys, tempfile, zipfile

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
n = int(sys.argv[1]); java = sys.argv[2]; jar = os.path.abspath(sys.argv[3])
javac = os.path.join(os.path.dirname(java), "javac") if os.path.dirname(java) else "javac"
work = tempfile.mkdtemp(prefix="premain-floor")
src = os.path.join(root, "benchmarks", "premain-floor")
classes = os.path.join(work, "classes")
subprocess.run([javac, "-XDstringConcat=inline", "-d", classes, os.path.join(src, "FloorAgent.java")], check=True)
subprocess.run([javac, "-XDstringConcat=inline", "-cp", classes, "-d", classes]
               + [a for p in ("misc", "module", "access") for a in ("--add-exports", "java.base/jdk.internal.%s=ALL-UNNAMED" % p)]
               + [os.path.join(src, "FloorSetup.java")], check=True)
# The runtime's classes in BootRuntime.CLASSES's order (supertypes first), from the agent's jar.
boot = open(os.path.join(root, "agent/src/main/java/io/fastclock/agent/BootRuntime.java")).read()
names = re.findall(r'"([\w.$]+)"', boot[boot.index("static final String[] CLASSES"):].split("};")[0])
blob = struct.pack(">H", len(names))
with zipfile.ZipFile(jar) as z:
    for name in names:
        b = z.read("META-INF/fastclock/classes/" + name.replace(".", "/") + ".classdata")
        blob += struct.pack(">H", len(name)) + name.encode() + struct.pack(">I", len(b)) + b
open(os.path.join(classes, "runtime.blob"), "wb").write(blob)
floor = os.path.join(work, "floor.jar")
with zipfile.ZipFile(floor, "w") as z:
    z.writestr("META-INF/MANIFEST.MF", "Manifest-Version: 1.0\nPremain-Class: FloorAgent\nCan-Retransform-Classes: true\n\n")
    for f in os.listdir(classes):
        if f.startswith("FloorAgent"):
            z.write(os.path.join(classes, f), f)
app = os.path.join(work, "app")
with zipfile.ZipFile(os.path.join(root, "benchmarks/target/benchmarks.jar")) as z:
    for name in z.namelist():
        if name.startswith("io/fastclock/bench/startup/"):
            z.extract(name, app)
empty = os.path.join(work, "empty.jar")
with zipfile.ZipFile(empty, "w") as z:
    z.writestr("META-INF/MANIFEST.MF", "Manifest-Version: 1.0\nPremain-Class: io.fastclock.bench.startup.EmptyAgent\n\n")
    z.write(os.path.join(app, "io/fastclock/bench/startup/EmptyAgent.class"), "io/fastclock/bench/startup/EmptyAgent.class")
sim = {"LD_PRELOAD": os.path.join(root, "native/target/libslowclock.so"), "SLOWCLOCK_SPIN_NS": "0"}
cases = [("empty agent", ["-javaagent:" + empty], {}, " io.fastclock.bench.startup.EmptyAgent "),
         ("floor (FloorAgent)", ["-javaagent:%s=%s" % (floor, classes)], {}, " FloorAgent "),
         ("fastclock, defaults, simulator", ["-javaagent:" + jar], sim, " io.fastclock.entry.AgentEntry ")]
log = os.path.join(work, "classes.log")


def ms(line):
    return int(re.match(r"\[(\d+)ns\]", line).group(1)) / 1e6


def once(args, extra, agent_class):
    env = {k: v for k, v in os.environ.items() if not k.startswith("FASTCLOCK_") and k not in ("LD_PRELOAD", "JAVA_TOOL_OPTIONS")}
    env.update(extra)
    subprocess.run([java, "-Xlog:class+load:file=%s:uptimenanos" % log] + args
                   + ["-cp", app, "io.fastclock.bench.startup.Hello"], env=env, capture_output=True, check=True)
    lines = open(log).read().splitlines()
    start = next(ms(l) for l in lines if agent_class in l)
    main = next(ms(l) for l in lines if " io.fastclock.bench.startup.Hello " in l)
    return main - start


results = {c[0]: [] for c in cases}
paired = {c[0]: [] for c in cases}
for r in range(n + 1):
    row = {name: once(args, extra, agent_class) for name, args, extra, agent_class in cases}
    if r > 0:
        for name in row:
            results[name].append(row[name])
            paired[name].append(row[name] - row["empty agent"])
width = max(len(c[0]) for c in cases)
print("%-*s %9s %7s %9s" % (width, "ms, agent class -> main class", "median", "min", "paired Δ"))
for name, *_ in cases:
    v = results[name]
    print("%-*s %9.2f %7.2f %+9.2f" % (width, name, statistics.median(v), min(v), statistics.median(paired[name])))
