#!/usr/bin/env bash
# Runs the integration tests that decide or time anything on a busy host, as on a machine where
# services start together or a CI box runs other builds: LOOPS busy loops (default 2, one per core
# of the 2-core machines this project is built on) spin, and CHAINS chains of short JVMs start one
# after another (default 1, `java -version` each), for the whole run. Every test must pass beside
# them as on a quiet machine, or say what it cannot know under load (docs/CONTRACT.md,
# activation.busy: the agent measures again where busy CPUs cut a measurement short).
#
# Usage (from the repository root or anywhere; builds what the tests need, without the unit tests):
#   integration-tests/busy-host-check.sh [--loops N] [--chains N] [--jdks 17] [--tests A,B] [-- MAVEN_ARGS...]
#   --loops   busy loops beside the run (default 2)
#   --chains  chains of short JVMs beside the run (default 1)
#   --jdks    -Dfastclock.it.jdks (default 17)
#   --tests   -Dit.test (default: the tests that decide or time anything)
# Not in .ci/run, which keeps to the README's 15-minute test command: run it before a change to anything
# that measures or decides lands.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
loops=2
chains=1
jdks=17
# The tests whose verdicts, switches or bounds a busy host could move.
tests=ActivationIT,BackgroundStartIT,BusyCpusIT,DoctorIT,JfrIT,ContractIT,CoarseLagIT,CoarseOnlyJavaTimeIT,AttachIT,DemotionIT,JmxIT,EpochContractIT,CompiledCostIT,TscChecksFaultIT,SpoofedStateIT,TheftIT,FastMachineIT

while [ $# -gt 0 ]; do
  case "$1" in
    --loops) loops=$2; shift 2 ;;
    --chains) chains=$2; shift 2 ;;
    --jdks) jdks=$2; shift 2 ;;
    --tests) tests=$2; shift 2 ;;
    --) shift; break ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "busy-host-check: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
for n in "$loops" "$chains"; do
  case "$n" in
    ''|*[!0-9]*) echo "busy-host-check: --loops and --chains take a whole number, not '$n'" >&2; exit 2 ;;
  esac
done

pids=()
stop_load() {
  [ ${#pids[@]} -eq 0 ] || kill "${pids[@]}" 2>/dev/null || true
}
trap stop_load EXIT
for _ in $(seq 1 "$loops"); do
  (while :; do :; done) &
  pids+=($!)
done
for _ in $(seq 1 "$chains"); do
  (while :; do java -version >/dev/null 2>&1 || sleep 1; done) &
  pids+=($!)
done

echo "busy-host-check: $loops busy loop(s), $chains chain(s) of short JVMs; jdks=$jdks"
echo "busy-host-check: tests=$tests"
cd "$root"
# -am: the native library and the agent jar are built first (from a fresh clone there is none);
# -Dtest=none skips their unit tests, which this run is not about.
mvn -B verify -pl integration-tests -am -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false \
  -Dit.test="$tests" -Dfastclock.it.jdks="$jdks" "$@"
