#!/usr/bin/env bash
# Runs the host-sensitive integration tests as if this machine were one of the slow hosts fastclock
# is for: every JVM of the run (Maven's, the test JVM and each JVM a test forks, which inherit the
# environment) sees
#   - slow clocks: the simulator native/target/libslowclock.so preloaded, every fine clock read a
#     real system call plus SLOWCLOCK_SPIN_NS of busy waiting (default 500 ns, about an HPET read),
#     so that the agent measures them far over its 100 ns threshold;
#   - an hpet kernel: FASTCLOCK_SYSFS and FASTCLOCK_PROCFS (settings the agent reads from the
#     environment) point at a machine fixture in agent/src/test/resources/fixtures; by default
#     hpet-tsc-demoted (clocksource hpet, tsc no longer in available_clocksource, as on a machine
#     whose TSC the kernel dropped, and as in the emulated hpet guest).
# A test that feeds its own machine (agent settings sysfs=/procfs=, Fixtures) overrides the
# environment, as a setting in the agent argument does; a test that depends on the host reads it
# through the same variables (integration-tests/src/test/java/io/fastclock/it/HostMachine.java).
# Tests that set their own LD_PRELOAD (the simulator with other settings, the mkdir spy) replace it.
#
# Every test must pass (or skip, saying why) under every profile; a failure is a test that assumes
# a fast host, or an agent that misjudges a slow one.
#
# Usage (from the repository root or anywhere; builds what the tests need, without the unit tests):
#   integration-tests/slow-host-check.sh [--machine FIXTURE|none] [--spin-ns N] [--no-simulator]
#                                        [--jdks 17,25] [--tests ActivationIT,JmxIT] [-- MAVEN_ARGS...]
#   --machine   fixture the agent sees as /sys and /proc: hpet-tsc-demoted (default), hpet-healthy-tsc
#               (hpet, but the TSC is trusted: the TSC clock's own tests run), acpi_pm, xen,
#               no-nonstop-tsc; none: the host's own /sys and /proc (inside a real slow guest)
#   --spin-ns   the simulator's extra busy wait per fine read (SLOWCLOCK_SPIN_NS), default 500
#   --no-simulator  do not preload the simulator (inside a guest whose clocks are really slow)
#   --jdks      -Dfastclock.it.jdks (default 17)
#   --tests     -Dit.test (default: the tests whose expectations depend on the host's clocks)
# Inside the lab's hpet guest: integration-tests/slow-host-check.sh --machine none --no-simulator
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
machine=hpet-tsc-demoted
spin_ns=500
simulator=1
jdks=17
# Every IT whose expectation depended on the host's clocksource, its clock costs, its TSC or its
# kernel tick (docs/SLOW-HOST-TESTS.md).
tests=ActivationIT,JmxIT,JfrIT,ContractIT,LoggingIT,AttachIT,DoctorIT,SpoofedStateIT,JdkScopeIT,CoarseOnlyJavaTimeIT,EnvironmentSettingsIT,JnaFallbackIT,NamedModuleIT,TscChecksFaultIT,RetransformFailureIT,DemotionIT,EpochContractIT,JTimeCoverageIT,HostSafetyIT,HostileEnvironmentIT,LoadIT,MonotonicRateIT,SlowReadCountIT,WallClockStepIT,ConcurrentLoadIT,CalmThreadsIT

while [ $# -gt 0 ]; do
  case "$1" in
    --machine) machine=$2; shift 2 ;;
    --spin-ns) spin_ns=$2; shift 2 ;;
    --no-simulator) simulator=0; shift ;;
    --jdks) jdks=$2; shift 2 ;;
    --tests) tests=$2; shift 2 ;;
    --) shift; break ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "slow-host-check: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done

if [ "$machine" != none ]; then
  fixture=$root/agent/src/test/resources/fixtures/$machine
  if [ ! -d "$fixture/sys" ] || [ ! -d "$fixture/proc" ]; then
    echo "slow-host-check: no machine fixture with sys/ and proc/ at $fixture" >&2
    exit 2
  fi
  export FASTCLOCK_SYSFS=$fixture/sys FASTCLOCK_PROCFS=$fixture/proc
fi
if [ "$simulator" = 1 ]; then
  lib=$root/native/target/libslowclock.so
  if [ ! -f "$lib" ]; then
    (cd "$root" && mvn -B -q -DskipTests package -pl native) || exit 2
  fi
  case "$spin_ns" in
    ''|*[!0-9]*) echo "slow-host-check: --spin-ns takes a whole number of ns, not '$spin_ns'" >&2; exit 2 ;;
  esac
  export LD_PRELOAD=$lib SLOWCLOCK_SPIN_NS=$spin_ns
fi

echo "slow-host-check: machine=${machine} simulator=$([ "$simulator" = 1 ] && echo "on, SLOWCLOCK_SPIN_NS=$spin_ns" || echo off) jdks=$jdks"
echo "slow-host-check: tests=$tests"
cd "$root"
# -am: the native library and the agent jar are built first (from a fresh clone there is none);
# -Dtest=none skips their unit tests, which this run is not about.
exec mvn -B verify -pl integration-tests -am -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false \
  -Dit.test="$tests" -Dfastclock.it.jdks="$jdks" "$@"
