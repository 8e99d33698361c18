#!/usr/bin/env bash
# Measures an attach (a measurement, not a test; run it to get the figures on your machine): a
# program with CLASSES loaded classes and THREADS threads reading both clocks, under the
# slow-clocksource simulator, gets fastclock attached after a few seconds. Prints the wall time of
# the attach command, the longest RedefineClasses safepoint (-Xlog:safepoint) and the ns per read
# before and after, next to the same program with -javaagent from the start. Run after
# `mvn -B -q -DskipTests package` (and test-compile).
# usage: integration-tests/attach-measure.sh [JAVA] [CLASSES] [THREADS] [files|generated]
# (files: the classes are loaded from class files, as from a jar; generated: defined from bytes)
set -euo pipefail
cd "$(dirname "$0")/.."
java="${1:-java}"
classes="${2:-5000}"
threads="${3:-2}"
kind="${4:-files}"
jar=agent/target/fastclock.jar
asm=$(ls ~/.m2/repository/org/ow2/asm/asm/9.9/asm-9.9.jar)
cp="integration-tests/target/test-classes:$asm"
sim=native/target/libslowclock.so
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

median() { sort -n | awk '{a[NR]=$1} END {if (NR==0) print "?"; else print a[int((NR+1)/2)]}'; }

# 1. attached while running
LD_PRELOAD=$sim SLOWCLOCK_SPIN_NS=0 "$java" -Xlog:safepoint:file="$work/safepoint.log":uptime -cp "$cp" \
  io.fastclock.it.apps.AttachBenchApp "$classes" "$threads" 30 "$kind" >"$work/app.out" 2>"$work/app.err" &
app=$!
until grep -q '^ready' "$work/app.out" 2>/dev/null; do sleep 0.1; done
sleep 4
before_ms=$(awk -F'[= ]' '/^t=/ {print $2}' "$work/app.out" | tail -1)
t0=$(date +%s%N)
"$java" -jar "$jar" attach "$app" mode=on >"$work/attach.out" 2>&1 || true
t1=$(date +%s%N)
wait "$app"
attach_ms=$(( (t1 - t0) / 1000000 ))
after_from=$(( before_ms + attach_ms + 1500 ))
before=$(awk -F'[= ]' -v to="$before_ms" '/^t=/ && $2 > 1000 && $2 <= to {print $5}' "$work/app.out" | median)
after=$(awk -F'[= ]' -v from="$after_from" '/^t=/ && $2 >= from {print $5}' "$work/app.out" | median)
pause=$(grep -E 'RedefineClasses' "$work/safepoint.log" | sed -E 's/.*Total: ([0-9]+) ns.*/\1/' | sort -n | tail -1)
pauses=$(grep -cE 'RedefineClasses' "$work/safepoint.log" || true)
at_safepoint=$(grep -E 'RedefineClasses' "$work/safepoint.log" | sed -E 's/.*At safepoint: ([0-9]+) ns.*/\1/' | sort -n | tail -1)
verdict=$(grep -E 'ms from attach to verdict' "$work/attach.out" || cat "$work/attach.out")

# 2. the same program with -javaagent from the start
LD_PRELOAD=$sim SLOWCLOCK_SPIN_NS=0 "$java" -javaagent:"$jar"=mode=on -cp "$cp" \
  io.fastclock.it.apps.AttachBenchApp "$classes" "$threads" 6 "$kind" >"$work/ref.out" 2>"$work/ref.err"
ref=$(awk -F'[= ]' '/^t=/ && $2 > 1500 {print $5}' "$work/ref.out" | median)

"$java" -version 2>&1 | head -1
echo "classes loaded: $classes $kind (1 in 10 calls the clocks) + the JDK's; reader threads: $threads"
echo "attach command wall time: $attach_ms ms"
echo "command said: $verdict"
grep -E '^  (verdict|rewritten)' "$work/attach.out" || true
echo "RedefineClasses safepoints: $pauses, longest: $(( ${pause:-0} / 1000 )) us in all, $(( ${at_safepoint:-0} / 1000 )) us at the safepoint (the rest is reaching it)"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "ns per read (median of 250 ms windows): before attach $before, after attach $after, -javaagent from the start $ref"
