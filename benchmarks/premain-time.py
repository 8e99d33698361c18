#!/usr/bin/env python3
"""The main thread's time in the agent: from the JVM loading the agent's class to it loading the
application's main class (-Xlog:class+load with uptimenanos), alternating runs, medians. Less noisy
than whole-process timings: nothing before the agent or after main is counted.

  benchmarks/premain-time.py [--floor] RUNS JAVA AGENT.jar [OLD_AGENT.jar ...]

Configurations: an empty agent; the agent at its defaults on this host and under the simulator
(LD_PRELOAD=native/target/libslowclock.so, SLOWCLOCK_SPIN_NS=0); the same with a sysfs whose
current_clocksource is hpet (-Dfastclock.sysfs): the simulator keeps this host's clocksource name, tsc,
so the entry times the slow clocks before it finds them not fast, where a host on hpet, acpi_pm or xen
is known slow by its name alone; mode=on; start=wait under the simulator; each OLD_AGENT's defaults on this host and under the simulator (named by its file). Each
round runs every configuration once; "paired Δ" is the median of each round's difference from that
round's empty agent, which a machine that slows down for a while moves less than the medians. The child is the
benchmarks' Hello. Needs benchmarks/target/benchmarks.jar (mvn -B -q -Pbench -DskipTests package).

--floor adds benchmarks/premain-floor/FloorAgent (JDK 12+, built here with the JAVA's javac): only what
premain's set-up of the boot runtime cannot do without (the caller check, java.base's exports, the
runtime's module and its classes from AGENT.jar, a transformer that changes nothing, a thread).
"""
import os, re, statistics, subprocess, sys, tempfile, zipfile

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
args = sys.argv[1:]
floor = args[0] == "--floor"
if floor:
    args = args[1:]
n = int(args[0]); java = args[1]; jar = os.path.abspath(args[2])
olds = [os.path.abspath(a) for a in args[3:]]
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
hpet = os.path.join(work, "sys")
os.makedirs(os.path.join(hpet, "devices/system/clocksource/clocksource0"))
with open(os.path.join(hpet, "devices/system/clocksource/clocksource0/current_clocksource"), "w") as f:
    f.write("hpet\n")
ENTRY = " io.fastclock.entry.AgentEntry "
cases = [("empty agent", ["-javaagent:" + empty], {}, " io.fastclock.bench.startup.EmptyAgent ")]
for old in olds:
    label = os.path.basename(old)
    cases += [(label + ", defaults", ["-javaagent:" + old], {}, ENTRY), (label + ", defaults, simulator", ["-javaagent:" + old], sim, ENTRY)]
cases += [("defaults", ["-javaagent:" + jar], {}, ENTRY),
          ("defaults, simulator", ["-javaagent:" + jar], sim, ENTRY),
          ("defaults, simulator, hpet by name", ["-Dfastclock.sysfs=" + hpet, "-javaagent:" + jar], sim, ENTRY),
          ("mode=on", ["-javaagent:" + jar + "=mode=on"], {}, ENTRY),
          ("start=wait, simulator", ["-javaagent:" + jar + "=start=wait"], sim, ENTRY)]
if floor:
    import struct
    src = os.path.join(root, "benchmarks", "premain-floor")
    classes = os.path.join(work, "floor")
    javac = os.path.join(os.path.dirname(java), "javac") if os.path.dirname(java) else "javac"
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
    floor_jar = os.path.join(work, "floor.jar")
    with zipfile.ZipFile(floor_jar, "w") as z:
        z.writestr("META-INF/MANIFEST.MF", "Manifest-Version: 1.0\nPremain-Class: FloorAgent\nCan-Retransform-Classes: true\n\n")
        for f in os.listdir(classes):
            if f.startswith("FloorAgent"):
                z.write(os.path.join(classes, f), f)
    cases.insert(1, ("floor (FloorAgent)", ["-javaagent:%s=%s" % (floor_jar, classes)], {}, " FloorAgent "))
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
paired = {c[0]: [] for c in cases}
for r in range(n + 1):
    row = {}
    for name, args, extra, agent_class in cases:
        row[name] = once(args, extra, agent_class)
    if r > 0:
        for name in row:
            results[name].append(row[name])
            paired[name].append(row[name] - row["empty agent"])
base = statistics.median(results["empty agent"])
width = max(len(c[0]) for c in cases)
print("%-*s %9s %7s %9s %9s" % (width, "ms, agent class -> main class", "median", "min", "Δ median", "paired Δ"))
for name, *_ in cases:
    v = results[name]
    print("%-*s %9.2f %7.2f %+9.2f %+9.2f" % (width, name, statistics.median(v), min(v), statistics.median(v) - base,
                                          statistics.median(paired[name])))
