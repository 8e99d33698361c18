#!/bin/sh
# Run inside a lab guest for docs/BENCHMARKS.md's figures from a real kernel: the clocksource, the doctor's verdict,
# and ns per call of currentTimeMillis, nanoTime and Instant.now() (ClockCostApp) without and with the agent.
#   guest-figures.sh AGENT_JAR CLASSPATH [JAVA_HOME]
set -u
agent=$1 cp=$2 java=${3:-/usr/lib/jvm/java-17-openjdk-amd64}/bin/java
echo "clocksource=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
echo "cpuflags=$(grep -o -w -e constant_tsc -e nonstop_tsc -e rdtscp /proc/cpuinfo | sort -u | tr '\n' ' ')"
"$java" -version 2>&1 | sed -n 1p
echo "## doctor"
"$java" -jar "$agent" doctor 2>&1 | sed -n '/^Millis lag against/,$p'
echo "## without the agent"
"$java" -cp "$cp" io.fastclock.it.apps.ClockCostApp 2>&1
echo "## with the agent (defaults)"
"$java" "-javaagent:$agent" -cp "$cp" io.fastclock.it.apps.ClockCostApp 2>&1
