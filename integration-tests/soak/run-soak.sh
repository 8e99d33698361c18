#!/usr/bin/env bash
# Soak test (not run in CI): a JVM with the agent (mode=on: TSC clocks) measures every second the
# worst deviation of the rewritten nanoTime from System.nanoTime, of the rewritten
# currentTimeMillis from System.currentTimeMillis, and the rate error over the last interval,
# into a CSV, then plots it.
#
#   integration-tests/soak/run-soak.sh [minutes=10]
#
# Environment: JAVA (default: java on PATH), OUT (default: integration-tests/target/soak),
# AGENT_ARGS (default mode=on), SLOW=1 to run under the slow-clocksource simulator,
# SAMPLE_MS (default 200: measured ms out of each second).
# Needs a built tree: mvn -B -q install -DskipTests (test classes come from integration-tests/target).
set -euo pipefail
minutes="${1:-10}"
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
java="${JAVA:-java}"
out="${OUT:-$root/integration-tests/target/soak}"
agent="$root/agent/target/fastclock.jar"
classes="$root/integration-tests/target/test-classes"
[ -f "$agent" ] || { echo "build first: mvn -B -q install -DskipTests" >&2; exit 2; }
if [ ! -f "$classes/io/fastclock/it/apps/SoakApp.class" ]; then
  (cd "$root/integration-tests" && mvn -B -q test-compile)
fi
mkdir -p "$out"
csv="$out/soak.csv"
env=()
if [ "${SLOW:-0}" = 1 ]; then env=(LD_PRELOAD="$root/native/target/libslowclock.so"); fi
echo "soak: $minutes min, agent ${AGENT_ARGS:-mode=on}, csv $csv"
env "${env[@]}" "$java" -javaagent:"$agent=${AGENT_ARGS:-mode=on}" -cp "$classes" \
  io.fastclock.it.apps.SoakApp "$minutes" "$csv" "${SAMPLE_MS:-200}" | tee "$out/summary.txt"
"$java" -version 2>&1 | head -1 >> "$out/summary.txt"
if python3 -c 'import matplotlib' 2>/dev/null; then
  python3 "$here/plot.py" "$csv" "$out/soak.png" "fastclock soak: $minutes min, ${AGENT_ARGS:-mode=on}, $("$java" -version 2>&1 | head -1)"
else
  echo "matplotlib missing (pip install matplotlib): no plot; the CSV is $csv" >&2
fi
