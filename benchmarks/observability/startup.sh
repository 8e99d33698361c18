#!/bin/bash
# Alternating hello-world runs of each configuration; prints median wall ms and median peak RSS MB.
# usage: startup.sh NEW_JAR OLD_JAR   (N=11 by default); from a directory holding HelloW.class
# (javac -d . HelloW.java). Run from the repository root's benchmarks/observability after building.
J=${1:?the fastclock.jar to measure}
M=${2:?the fastclock.jar to compare with}
S=${SLOWCLOCK:-../../native/target/libslowclock.so}
REC="-XX:StartFlightRecording=filename=/tmp/fastclock-startup.jfr -Xlog:jfr+startup=off"
declare -A CMD
CMD[a_plain]="java -cp . HelloW"
CMD[b_main_inactive]="java -javaagent:$M -cp . HelloW"
CMD[c_obs_inactive]="java -javaagent:$J -cp . HelloW"
CMD[d_obs_inactive_rec]="java $REC -javaagent:$J -cp . HelloW"
CMD[e_plain_rec]="java $REC -cp . HelloW"
CMD[f_main_active_sim]="env LD_PRELOAD=$S java -javaagent:$M -cp . HelloW"
CMD[g_obs_active_sim]="env LD_PRELOAD=$S java -javaagent:$J -cp . HelloW"
CMD[h_obs_active_sim_rec]="env LD_PRELOAD=$S java $REC -javaagent:$J -cp . HelloW"
CMD[i_obs_inactive_jmxon]="java -javaagent:$J=jmx=on -cp . HelloW"
CMD[j_main_active_sim_rec]="env LD_PRELOAD=$S java $REC -javaagent:$M -cp . HelloW"
N=${N:-11}
rm -f times.txt
for i in $(seq $N); do
  for k in $(echo ${!CMD[@]} | tr ' ' '\n' | sort); do
    s=$(date +%s%N); /usr/bin/time -f "%M" -o rss.txt ${CMD[$k]} >/dev/null 2>&1; e=$(date +%s%N)
    echo "$k $(( (e-s)/1000 )) $(cat rss.txt)" >> times.txt
  done
done
python3 - <<'PY'
import statistics, collections
d=collections.defaultdict(list)
for l in open('times.txt'):
    k,e,m=l.split(); d[k].append((float(e)/1000,int(m)/1024))
for k in sorted(d):
    t=[x[0] for x in d[k]]; m=[x[1] for x in d[k]]
    print(f"{k:24s} n={len(t)} median {statistics.median(t):6.0f} ms (min {min(t):4.0f})  peak RSS median {statistics.median(m):6.1f} MB")
PY
