#!/bin/sh
# Run inside a lab guest (guest-lab.sh) by GuestIT: the doctor once, then on each JDK the apps with the agent
# at its defaults but start=wait (what a user gets on this kernel, from main's first instruction): ContractApp (millis.lag, nanos.monotonic), EpochContractApp
# (Instant.now() and new Date() against currentTimeMillis) and, with +logging, LoggingApp (Logback and Log4j2 stamps).
# Each run leaves OUT/NAME.out, .err, .rc and .secs (its wall time in the guest); GuestIT judges them.
#
#   guest-checks.sh OUT AGENT_JAR CLASSPATH [+logging] LABEL=JAVA_HOME...
# LoggingApp runs only with +logging: its frameworks' start is the slowest part under emulation, and
# what it proves (java.time's stamps) is the JDK's more than the kernel's.
set -u
# The apps check what main reads from its first instruction: the verdict before main (the default,
# start=background, would leave those reads to the system clocks until it comes).
export FASTCLOCK_START=wait
out=$1 agent=$2 cp=$3
shift 3
logging=0
if [ "${1:-}" = "+logging" ]; then
  logging=1
  shift
fi

cat /sys/devices/system/clocksource/clocksource0/current_clocksource >"$out/clocksource"
grep -o -w -e constant_tsc -e nonstop_tsc /proc/cpuinfo | sort -u | tr '\n' ' ' >"$out/cpuflags"

# run NAME JAVA ARG...
run() {
  name=$1
  shift
  start=$(cut -d' ' -f1 /proc/uptime)
  "$@" >"$out/$name.out" 2>"$out/$name.err"
  echo $? >"$out/$name.rc"
  end=$(cut -d' ' -f1 /proc/uptime)
  echo "$start $end" | awk '{ printf "%.1f\n", $2 - $1 }' >"$out/$name.secs"
  echo "$*" >"$out/$name.cmd"
}

first=1
for spec in "$@"; do
  label=${spec%%=*}
  java=${spec#*=}/bin/java
  if [ $first = 1 ]; then
    run doctor "$java" -jar "$agent" doctor --json
    first=0
  fi
  access=
  [ "$label" -ge 24 ] && access=--enable-native-access=ALL-UNNAMED
  run "jdk$label-contract" "$java" "-javaagent:$agent=log=debug" -cp "$cp" io.fastclock.it.apps.ContractApp 1 2
  run "jdk$label-epoch" "$java" "-javaagent:$agent" $access -cp "$cp" io.fastclock.it.apps.EpochContractApp 20000 0
  if [ $logging = 1 ]; then
    run "jdk$label-logging" "$java" "-javaagent:$agent" $access -cp "$cp" io.fastclock.it.apps.LoggingApp 0 500
  fi
done
echo done >"$out/done"
