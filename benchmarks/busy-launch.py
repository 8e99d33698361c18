#!/usr/bin/env python3
"""Launches of the service (io.fastclock.bench.service.ServiceApp) with fastclock at its defaults under the
HPET-like simulator while the host is busy, as when services start together: LOOPS processes spinning and
CHAINS chains of short JVMs (java -version, one after another) for the whole run. Each launch waits up to
TIMEOUT s for the agent's start line and records the verdict and when it came.

  benchmarks/busy-launch.py [--launches 12] [--loops 3] [--chains 3] [--timeout 8] [--args AGENT_ARGS]

Needs benchmarks/target/benchmarks.jar, agent/target/fastclock.jar and native/target/libslowclock.so.
"""
import argparse, os, subprocess, sys, tempfile, threading, time

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ap = argparse.ArgumentParser()
ap.add_argument("--launches", type=int, default=12)
ap.add_argument("--loops", type=int, default=3)
ap.add_argument("--chains", type=int, default=3)
ap.add_argument("--timeout", type=float, default=8)
ap.add_argument("--args", default="")
ap.add_argument("--java", default=os.environ.get("JAVA", "java"))
a = ap.parse_args()
jar = os.path.join(root, "benchmarks/target/benchmarks.jar")
agent = os.path.join(root, "agent/target/fastclock.jar")
sim = os.path.join(root, "native/target/libslowclock.so")
work = tempfile.mkdtemp(prefix="busy-launch")
stop = threading.Event()


def chain():
    while not stop.is_set():
        subprocess.run([a.java, "-version"], capture_output=True)


loops = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(a.loops)]
chains = [threading.Thread(target=chain, daemon=True) for _ in range(a.chains)]
for c in chains:
    c.start()
time.sleep(2)
env = {k: v for k, v in os.environ.items() if not k.startswith(("FASTCLOCK_", "SLOWCLOCK_")) and k != "JAVA_TOOL_OPTIONS"}
env.update({"LD_PRELOAD": sim, "SLOWCLOCK_SPIN_NS": "500", "SLOWCLOCK_SERIALIZE": "1"})
outcomes = []
try:
    for i in range(a.launches):
        err = os.path.join(work, "err-%d" % i)
        stopfile = os.path.join(work, "stop-%d" % i)
        t0 = time.monotonic()
        with open(err, "w") as e:
            p = subprocess.Popen([a.java, "-javaagent:%s%s" % (agent, "=" + a.args if a.args else ""), "-cp", jar,
                                  "io.fastclock.bench.service.ServiceApp", "0", stopfile], env=env,
                                 stdout=subprocess.DEVNULL, stderr=e)
            line, when = None, None
            while time.monotonic() - t0 < a.timeout:
                lines = [l for l in open(err).read().splitlines()
                         if l.startswith("fastclock: active") or l.startswith("fastclock: inactive")]
                if lines:
                    line, when = lines[0], time.monotonic() - t0
                    break
                time.sleep(0.05)
            open(stopfile, "w").close()
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()
        tsc = line is not None and line.startswith("fastclock: active: currentTimeMillis -> tsc, nanoTime -> tsc")
        outcomes.append((tsc, when, line))
        print("launch %2d: %s after %s s: %s" % (i + 1, "TSC" if tsc else "NOT TSC", "%.2f" % when if when else "-",
                                                 "how: " + (line.split(" rewritten", 1)[-1] if line else "no start line within %.0f s" % a.timeout)), flush=True)
finally:
    stop.set()
    for l in loops:
        l.kill()
print("%d of %d launches active on the TSC within %.0f s (load: %d spinning, %d chains of java -version)" % (
    sum(1 for o in outcomes if o[0]), len(outcomes), a.timeout, a.loops, a.chains))
