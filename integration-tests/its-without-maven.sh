#!/usr/bin/env bash
# Runs integration test classes without Maven, with the system properties failsafe gives them, for
# a machine where Maven cannot run or write: the lab's guests (integration-tests/guest/guest-lab.sh)
# share the host's files read-only. Prepare on the host (needs Maven, offline), run anywhere the
# host's files are (it writes only to the temporary directory, as the tests do).
#
#   integration-tests/its-without-maven.sh prepare          # after mvn -B -o -q -DskipTests package
#   integration-tests/its-without-maven.sh run [--jdks 17,25] io.fastclock.it.ActivationIT ...
#   integration-tests/guest/guest-lab.sh --clocksource hpet -- \
#       "$PWD/integration-tests/its-without-maven.sh" run io.fastclock.it.ActivationIT io.fastclock.it.ContractIT
#
# Output: "[it] SUCCESSFUL|ABORTED|FAILED <class> <test> #<case>" per test (ABORTED: a visible skip,
# its reason after it), then JUnit's summary; exit status 1 if a test failed.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
work=$root/integration-tests/target/its-launcher
mode=${1:-}
shift || true

case "$mode" in
  prepare)
    mkdir -p "$work/classes"
    (cd "$root" && mvn -B -o -q -pl integration-tests test-compile dependency:build-classpath \
        -Dmdep.includeScope=test -Dmdep.outputFile="$work/classpath.txt")
    launcher_jar=$(ls "$HOME"/.m2/repository/org/junit/platform/junit-platform-launcher/*/junit-platform-launcher-*.jar \
        | grep "/$(basename "$(tr ':' '\n' < "$work/classpath.txt" | grep -m1 junit-platform-engine | xargs dirname)")/" || true)
    if [ -z "$launcher_jar" ]; then
      echo "its-without-maven: no junit-platform-launcher of the engine's version in ~/.m2 (run mvn -B verify -pl integration-tests once)" >&2
      exit 2
    fi
    echo "$(cat "$work/classpath.txt"):$launcher_jar:$work/classes:$root/integration-tests/target/test-classes" > "$work/run-classpath.txt"
    javac -d "$work/classes" -cp "$(cat "$work/run-classpath.txt")" "$root/integration-tests/launcher/ItLauncher.java"
    echo "its-without-maven: prepared in $work"
    ;;
  run)
    jdks=17
    if [ "${1:-}" = --jdks ]; then jdks=$2; shift 2; fi
    if [ ! -f "$work/run-classpath.txt" ]; then
      echo "its-without-maven: run '$0 prepare' on the host first" >&2
      exit 2
    fi
    cd "$root/integration-tests"
    exec java -cp "$(cat "$work/run-classpath.txt")" \
      -Dfastclock.agent.jar="$root/agent/target/fastclock.jar" \
      -Dfastclock.slowclock.lib="$root/native/target/libslowclock.so" \
      -Dfastclock.mkdirspy.lib="$root/native/target/libmkdirspy.so" \
      -Dfastclock.fault.crosscpu.lib="$root/native/target/faults/libfastclock-crosscpu.so" \
      -Dfastclock.fault.calib.lib="$root/native/target/faults/libfastclock-calib.so" \
      -Dfastclock.it.jdks="$jdks" \
      -Dfastclock.test.classes="$root/integration-tests/target/test-classes" \
      ItLauncher "$@"
    ;;
  *)
    sed -n '2,13p' "$0"
    exit 2
    ;;
esac
