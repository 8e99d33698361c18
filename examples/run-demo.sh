#!/usr/bin/env bash
# Runs the fastclock demo in up to four set-ups, each a JVM of its own, taking turns row by row and
# round after round (io.fastclock.examples.DemoRounds), then prints each row's figures with their
# spread and the agent's against the same set-up without it:
#   plain       java -cp fastclock-demo.jar ...
#   agent       java -javaagent:fastclock.jar ...   (the agent at its defaults)
#   slow        LD_PRELOAD=libslowclock.so java ...   (a simulated slow clocksource)
#   slow-agent  the simulator and the agent together
#   all         the four above (default)
# Usage: examples/run-demo.sh [plain|agent|slow|slow-agent|all] [demo args...]
# With no demo args, runs --quick (under a minute on 2 cores); "all --help" lists the demo args. Build first:
# mvn -B -q -DskipTests package (from the repository root).
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
  -h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
esac
if [ $# -eq 0 ]; then set -- --quick; fi

[ -f "$demo_jar" ] || { echo "run-demo: $demo_jar not found; build it: (cd $root && mvn -B -q -DskipTests package)" >&2; exit 1; }

have_agent() {
  [ -f "$agent_jar" ] && return 0
  echo "######## $1: skipped, $agent_jar not found (build the agent module first)"
  return 1
}

have_slow() {
  [ -f "$slow_lib" ] && return 0
  echo "######## $1: skipped, $slow_lib not found (build it: mvn -B -q -pl native package)"
  return 1
}

setups=()
if [ "$mode" = all ]; then
  wanted=(plain agent slow slow-agent)
else
  wanted=("$mode")
fi
for m in "${wanted[@]}"; do
  case "$m" in
    plain) setups+=(plain) ;;
    agent) if have_agent agent; then setups+=(agent); fi ;;
    slow) if have_slow slow; then setups+=(slow); fi ;;
    slow-agent) if have_slow slow-agent && have_agent slow-agent; then setups+=(slow-agent); fi ;;
  esac
done
[ ${#setups[@]} -gt 0 ] || exit 1

setup_list=$(IFS=,; echo "${setups[*]}")
exec "$java" -cp "$demo_jar" io.fastclock.examples.DemoRounds --java "$java" --demo-jar "$demo_jar" \
  --agent "$agent_jar" --simulator "$slow_lib" --setups "$setup_list" "$@"
