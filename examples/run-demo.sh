#!/usr/bin/env bash
# Runs the fastclock demo in up to four set-ups, to compare them:
#   plain       java -jar fastclock-demo.jar
#   agent       java -javaagent:fastclock.jar=start=wait -jar fastclock-demo.jar
#               (start=wait: the demo times the clocks from its first line, so the verdict comes before main)
#   slow        LD_PRELOAD=libslowclock.so java -jar fastclock-demo.jar   (a simulated slow clocksource)
#   slow-agent  the simulator and the agent together
#   all         the four above, in that order (default)
# Usage: examples/run-demo.sh [plain|agent|slow|slow-agent|all] [demo args...]
# With no demo args, runs --quick. Build first: mvn -B -q package (from the repository root).
# The simulator reads SLOWCLOCK_SPIN_NS, SLOWCLOCK_SERIALIZE, SLOWCLOCK_FINE and SLOWCLOCK_STEPS
# from the environment, e.g. SLOWCLOCK_SPIN_NS=500 SLOWCLOCK_SERIALIZE=1 examples/run-demo.sh slow
# (HPET-like). JAVA selects the java binary.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
demo_jar=$root/examples/target/fastclock-demo.jar
agent_jar=$root/agent/target/fastclock.jar
slow_lib=$root/native/target/libslowclock.so
java=${JAVA:-${JAVA_HOME:+$JAVA_HOME/bin/java}}
java=${java:-java}

mode=all
case "${1:-}" in
  plain|agent|slow|slow-agent|all) mode=$1; shift ;;
  -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
esac
if [ $# -eq 0 ]; then set -- --quick; fi

[ -f "$demo_jar" ] || { echo "run-demo: $demo_jar not found; build it: (cd $root && mvn -B -q package)" >&2; exit 1; }

run() {
  local name=$1; shift
  echo
  echo "######## $name: $*"
  "$@"
}

have_agent() {
  [ -f "$agent_jar" ] && return 0
  echo
  echo "######## $1: skipped, $agent_jar not found (build the agent module first)"
  return 1
}

have_slow() {
  [ -f "$slow_lib" ] && return 0
  echo
  echo "######## $1: skipped, $slow_lib not found (build it: mvn -B -q -pl native package)"
  return 1
}

status=0
one() {
  case "$1" in
    plain) run plain "$java" -jar "$demo_jar" "${@:2}" ;;
    agent) if have_agent agent; then run agent "$java" "-javaagent:$agent_jar=start=wait" -jar "$demo_jar" "${@:2}"; fi ;;
    slow) if have_slow slow; then run slow env LD_PRELOAD="$slow_lib" "$java" -jar "$demo_jar" "${@:2}"; fi ;;
    slow-agent)
      if have_slow slow-agent && have_agent slow-agent; then
        run slow-agent env LD_PRELOAD="$slow_lib" "$java" "-javaagent:$agent_jar=start=wait" -jar "$demo_jar" "${@:2}"
      fi ;;
  esac || status=$?
}

if [ "$mode" = all ]; then
  for m in plain agent slow slow-agent; do one "$m" "$@"; done
else
  one "$mode" "$@"
fi
exit "$status"
