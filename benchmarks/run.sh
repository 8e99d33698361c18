#!/usr/bin/env bash
# Runs fastclock's benchmarks on this machine and regenerates docs/BENCHMARKS.md.
#
#   benchmarks/run.sh --quick   # 1 fork, 2x1 s warm-up, 3x1 s measurement, average time (calls/s derived):
#                               # every clock at 1 thread, the main clocks again at all cores
#   benchmarks/run.sh --full    # 2 forks, 3x1 s warm-up, 5x2 s measurement, both JMH modes; every clock
#                               # at 1 thread and at all cores, the scaling set at 1..2x cores
#
# --quick on a 2-core VM, per machine: 19 benchmarks at 1 thread + 17 at all cores = 36 forks of
# 5 s measured plus ~1-2.5 s of JVM start and set-up, so 3.6-4.5 min; 11-14 min for the three
# machines, plus ~1/2 min for the start-up harness. (Oversubscribed threads, 2x cores, only in --full.)
#
# Options: --old REV (the agent costs, start-up, class loading and attach, also for the agent built
#          from commit REV, in the same rounds: old and new side by side; built once into
#          benchmarks/target/old-REV from `git archive REV`),
#          --no-build (reuse benchmarks/target/benchmarks.jar and agent/target/fastclock.jar),
#          --report-only (only regenerate docs/BENCHMARKS.md from benchmarks/results/).
#          --only-serial (only machine 4 below, then the report).
# Environment: JAVA (java binary, default: java on PATH), SLOWCLOCK_LIB (simulator, default
#          native/target/libslowclock.so), HPET_SPIN_NS (default 500), HPET_SERIAL (default 1: run
#          machine 4; 0 skips it, e.g. with a simulator that has no SLOWCLOCK_SERIALIZE).
#
# The same JMH suite runs three times, as on three machines:
#   tsc          this machine as it is (vDSO clock reads)
#   sim-syscall  LD_PRELOAD=libslowclock.so: every fine clock read is a real syscall (xen/hpet-like path)
#   sim-hpet500  the same plus SLOWCLOCK_SPIN_NS=500 busy wait per read (HPET's ~600+ ns)
# and a fourth, for the scaling set only (system clocks and fastclock at 1..N threads):
#   sim-hpet500-serial  the same plus SLOWCLOCK_SERIALIZE=1: one fine read at a time in the process,
#                as HPET serialises reads machine-wide
# Each machine also runs the limit set (LimitBench: JNI no-op and each read through JNI) and the
# java.time and logging set (JavaTimeBench, LoggingBench) without and with -javaagent:fastclock.jar.
# Raw JMH JSON goes to benchmarks/results/<label>.json, start-up costs to benchmarks/results/startup.json.
set -euo pipefail

mode=quick
build=1
report_only=0
only_serial=0
old_rev=""
expect_old=0
for arg in "$@"; do
  if [ "$expect_old" = 1 ]; then old_rev="$arg"; expect_old=0; continue; fi
  case "$arg" in
    --old) expect_old=1 ;;
    --quick) mode=quick ;;
    --full) mode=full ;;
    --no-build) build=0 ;;
    --report-only) report_only=1 ;;
    --only-serial) only_serial=1 ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) echo "run.sh: unknown argument '$arg' (accepted: --quick, --full, --old REV, --no-build, --report-only, --only-serial)" >&2; exit 2 ;;
  esac
done
[ "$expect_old" = 0 ] || { echo "run.sh: --old needs a commit" >&2; exit 2; }

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
java=${JAVA:-java}
results=benchmarks/results
jar=benchmarks/target/benchmarks.jar
agent=agent/target/fastclock.jar
slow=${SLOWCLOCK_LIB:-$root/native/target/libslowclock.so}
hpet_spin=${HPET_SPIN_NS:-500}
hpet_serial=${HPET_SERIAL:-1}
cores=$(nproc)
max_threads=$cores
scale_max=$((2 * cores))

if [ "$build" = 1 ] && [ "$report_only" = 0 ]; then
  echo "== build: mvn -B -q -Pbench -DskipTests package"
  mvn -B -q -Pbench -DskipTests package
fi
[ -f "$jar" ] || { echo "run.sh: $jar missing; run without --no-build" >&2; exit 1; }
# OpenHFT's Ticker reads the TSC through JNI only if libCEInternals (Chronicle Enterprise, not on
# Maven Central) loads; else it measures System.nanoTime. Build a stand-in with the same JNI
# functions (plain rdtsc, as OpenHFT's published C) so its rdtsc path is what gets measured.
native_dir="$root/benchmarks/target/native"
ticker_opts=()
if [ "$report_only" = 0 ] && command -v gcc >/dev/null 2>&1; then
  mkdir -p "$native_dir"
  java_home=$("$java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.home = //p')
  if gcc -O2 -Wall -Wextra -Werror -shared -fPIC -I"$java_home/include" -I"$java_home/include/linux" \
      -o "$native_dir/libCEInternals.so" benchmarks/src/main/c/ceinternals_standin.c; then
    ticker_opts=("-Djava.library.path=$native_dir")
  else
    echo "run.sh: could not build the libCEInternals stand-in; OpenHFT's Ticker will measure System.nanoTime" >&2
  fi
elif [ -f "$native_dir/libCEInternals.so" ]; then
  ticker_opts=("-Djava.library.path=$native_dir")
fi

# Run from a copy, so that a rebuild while this runs cannot mix two versions of the benchmarks.
mkdir -p benchmarks/target/run
cp "$jar" benchmarks/target/run/benchmarks.jar
jar=benchmarks/target/run/benchmarks.jar

report() {
  echo "== report: docs/BENCHMARKS.md"
  "$java" "${ticker_opts[@]}" -cp "$jar" io.fastclock.bench.report.ReportGenerator --results "$results" --docs docs --mode "$mode"
}
if [ "$report_only" = 1 ]; then report; exit 0; fi

if [ "$mode" = quick ]; then
  jmh_opts=(-f 1 -wi 2 -w 1s -i 3 -r 1s -bm avgt)
  # Every clock at 1 thread; the main clocks also at all cores (below). No 2x-cores point: it
  # would push a quick run past ~15 minutes on a 2-core machine.
  suite_threads="1"
  main_threads="$max_threads"
  scale_threads=""
  startup_runs=21
  load_runs=10
else
  jmh_opts=(-f 2 -wi 3 -w 1s -i 5 -r 2s -bm avgt,thrpt)
  suite_threads="1 $max_threads"
  main_threads=""
  scale_threads=$(seq -s ' ' 1 "$scale_max")
  startup_runs=25
  load_runs=15
fi
# Every clock: the system clocks, Instant.now, the peers, and fastclock's millis through each
# backend. FastClockBench.nanoTime runs apart, without jna-coarse: that backend serves millis only,
# so its nanoTime would measure the system clock a second time.
suite='io.fastclock.bench.(SystemClockBench|PeerClockBench)\.|io.fastclock.bench.FastClockBench\.currentTimeMillis$'
suite_nanos='io.fastclock.bench.FastClockBench\.nanoTime$'
nanos_backends=system,coarse,tsc
# The main clocks (--quick at all cores): the same, minus fastclock's "system" backend, which is the
# system clock behind FastClock's static final and is measured at 1 thread.
main_millis_backends=coarse,tsc,jna-coarse
main_nanos_backends=coarse,tsc
peer_scale='io.fastclock.bench.PeerClockBench\.(log4jCachedClock|openhftTickerTicks)$'
jtime='io.fastclock.bench.(JavaTimeBench|LoggingBench)\.'
# Machine 4 (serialised HPET): 1..cores threads in --quick, 1..2x cores in --full.
serial_threads=$(seq -s ' ' 1 "$cores")
if [ "$mode" = full ]; then serial_threads=$(seq -s ' ' 1 "$scale_max"); fi

mkdir -p "$results"
if [ "$only_serial" = 0 ]; then rm -f "$results"/*.json "$results"/*.log; fi
# What JMH's JSON does not record and the report needs: the coarse clocks' tick (clock_getres).
"$java" -cp "$jar" io.fastclock.bench.report.MachineInfo "$results/machine.json" \
  || echo "run.sh: could not record the coarse clock's tick; the report will describe it in general" >&2

# run_jmh LABEL TAG THREADS ARGS... : one JMH invocation, JSON to results/LABEL.TAG.tN.json
run_jmh() {
  local label=$1 tag=$2 threads=$3; shift 3
  local out="$results/$label.$tag.t$threads.json"
  echo "-- $label: $tag, $threads thread(s)"
  local fork_opts=()
  local jvm_extra="${ticker_opts[*]} ${EXTRA_JVM_ARGS:-}"
  if [ -n "${jvm_extra// /}" ]; then fork_opts=(-jvmArgsAppend "$jvm_extra"); fi
  "$java" -jar "$jar" "${jmh_opts[@]}" "${fork_opts[@]}" -t "$threads" -foe true -rf json -rff "$out" "$@" >>"$results/$label.log" 2>&1 \
    || { echo "run.sh: JMH failed for $label $tag t$threads; see $results/$label.log" >&2; exit 1; }
}

run_machine() {
  local label=$1
  for t in $suite_threads; do
    run_jmh "$label" suite "$t" "$suite"
    run_jmh "$label" suitenanos "$t" "$suite_nanos" -p backend="$nanos_backends"
  done
  for t in $main_threads; do
    case " $suite_threads " in *" $t "*) continue ;; esac
    run_jmh "$label" main "$t" "$suite" -p backend="$main_millis_backends"
    run_jmh "$label" mainnanos "$t" "$suite_nanos" -p backend="$main_nanos_backends"
  done
  run_jmh "$label" limit 1 'io.fastclock.bench.LimitBench\.'
  run_jmh "$label" jtime 1 "$jtime" -p agent=none
  # start=wait: the set-up checks the verdict, and every measured call is rewritten from the first
  EXTRA_JVM_ARGS="-javaagent:$root/$agent=start=wait" run_jmh "$label" jtimeagent 1 "$jtime" -p agent=fastclock
  for t in $scale_threads; do
    case " $suite_threads " in *" $t "*) continue ;; esac
    run_jmh "$label" sys "$t" 'io.fastclock.bench.SystemClockBench\.(currentTimeMillis|nanoTime)$'
    run_jmh "$label" fcmillis "$t" 'io.fastclock.bench.FastClockBench\.currentTimeMillis$' -p backend=coarse
    run_jmh "$label" fcnanos "$t" 'io.fastclock.bench.FastClockBench\.nanoTime$' -p backend=tsc
    run_jmh "$label" peers "$t" "$peer_scale"
  done
  "$java" -cp "$jar" io.fastclock.bench.report.MergeJson "$results/$label.json" "$results/$label".*.t*.json
  rm -f "$results/$label".*.t*.json
}

# The scaling set only: the system clocks and fastclock's at 1..N threads.
run_serial() {
  local label=$1
  for t in $serial_threads; do
    run_jmh "$label" sys "$t" 'io.fastclock.bench.SystemClockBench\.(currentTimeMillis|nanoTime)$'
    run_jmh "$label" fcmillis "$t" 'io.fastclock.bench.FastClockBench\.currentTimeMillis$' -p backend=coarse,tsc
    run_jmh "$label" fcnanos "$t" 'io.fastclock.bench.FastClockBench\.nanoTime$' -p backend=tsc
  done
  "$java" -cp "$jar" io.fastclock.bench.report.MergeJson "$results/$label.json" "$results/$label".*.t*.json
  rm -f "$results/$label".*.t*.json
}

serial_machine() {
  if [ ! -f "$slow" ] || [ "$hpet_serial" = 0 ]; then
    echo "run.sh: sim-hpet500-serial skipped (no simulator, or HPET_SERIAL=0)" >&2
    return
  fi
  echo "== machine 4/4: sim-hpet500-serial (LD_PRELOAD=$slow, SLOWCLOCK_SPIN_NS=$hpet_spin, SLOWCLOCK_SERIALIZE=1)"
  ( export LD_PRELOAD="$slow" SLOWCLOCK_SPIN_NS="$hpet_spin" SLOWCLOCK_SERIALIZE=1; run_serial sim-hpet500-serial )
}

if [ "$only_serial" = 1 ]; then
  rm -f "$results"/sim-hpet500-serial*.json
  serial_machine
  report
  exit 0
fi

start=$(date +%s)
echo "== machine 1/3: tsc (as is)"
( unset LD_PRELOAD SLOWCLOCK_SPIN_NS SLOWCLOCK_SERIALIZE; run_machine tsc )
if [ -f "$slow" ]; then
  echo "== machine 2/3: sim-syscall (LD_PRELOAD=$slow, SLOWCLOCK_SPIN_NS=0)"
  ( export LD_PRELOAD="$slow" SLOWCLOCK_SPIN_NS=0; unset SLOWCLOCK_SERIALIZE; run_machine sim-syscall )
  echo "== machine 3/3: sim-hpet500 (LD_PRELOAD=$slow, SLOWCLOCK_SPIN_NS=$hpet_spin)"
  ( export LD_PRELOAD="$slow" SLOWCLOCK_SPIN_NS="$hpet_spin"; unset SLOWCLOCK_SERIALIZE; run_machine sim-hpet500 )
  serial_machine
else
  echo "run.sh: no simulator at $slow (build native/ with slowclock.c, or set SLOWCLOCK_LIB); simulated machines skipped" >&2
fi

old_opts=()
if [ -n "$old_rev" ]; then
  old_dir="$root/benchmarks/target/old-$old_rev"
  if [ ! -f "$old_dir/agent/target/fastclock.jar" ]; then
    echo "== the old agent: $old_rev (git archive, mvn package, into $old_dir)"
    rm -rf "$old_dir"
    mkdir -p "$old_dir"
    git -C "$root" archive "$old_rev" | tar -x -C "$old_dir"
    mvn -B -q -f "$old_dir/pom.xml" -pl native,agent -am -DskipTests package
  fi
  old_opts=(--old-agent "$old_dir/agent/target/fastclock.jar" --old-name "$old_rev")
fi

echo "== start-up, verdict and class-loading cost"
"$java" -cp "$jar" io.fastclock.bench.StartupCost --agent "$agent" "${old_opts[@]}" --slowclock "$slow" \
  --runs "$startup_runs" --load-runs "$load_runs" --classes 12000 --out "$results/startup.json"
echo "== attach cost"
"$java" -cp "$jar" io.fastclock.bench.AttachCost --agent "$agent" "${old_opts[@]}" --slowclock "$slow" \
  --classes 5000 --threads 0,2 --runs 3 --out "$results/attach.json"

report
echo "== done in $(( $(date +%s) - start )) s"
