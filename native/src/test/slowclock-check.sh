#!/usr/bin/env bash
# Checks the slow-clocksource simulator (native/target/libslowclock.so):
#  - prints the cost of clock_gettime(CLOCK_MONOTONIC) without it, under it, and with a spin;
#  - checks that a wall-clock step is applied to CLOCK_REALTIME, CLOCK_REALTIME_COARSE and
#    gettimeofday, never to CLOCK_MONOTONIC, in syscall and in vdso mode;
#  - checks that a bad setting is named on stderr and ignored;
#  - checks the read counts (SLOWCLOCK_COUNT, SLOWCLOCK_COUNT_THREAD) against a known number of reads;
#  - checks that clocks taken from dlopen("librt.so.1") + dlsym(handle) (HotSpot 11's nanoTime) are
#    the simulator's (counted), and that other dlsym look-ups, RTLD_NEXT included, behave as before;
#  - checks that SLOWCLOCK_SERIALIZE=1 runs one fine read (and its spin) at a time, by the values the
#    reads return (no timing), that SLOWCLOCK_SERIALIZE=queue serves at most one read per turn, by
#    the reads counted in a known time (a bound no load can break; it tells only where the same
#    threads unserialised beat it, and says so where they did not), and prints reads/s at 1, 2 and
#    4 threads in each mode.
# Other timings are printed, not asserted. Exits non-zero if a functional check fails.
# SLOWCLOCK_MONO_PPM and SLOWCLOCK_COARSE_LAG are checked by MonotonicRateIT and CoarseLagIT.
# Usage: native/src/test/slowclock-check.sh [path/to/libslowclock.so]
set -euo pipefail
# The caller's own simulator settings must not change what is checked here.
unset "${!SLOWCLOCK_@}"

here=$(cd "$(dirname "$0")" && pwd)
lib=${1:-$here/../../target/libslowclock.so}
[ -f "$lib" ] || { echo "slowclock-check: $lib not found; build it: mvn -B -q -pl native package" >&2; exit 2; }
lib=$(cd "$(dirname "$lib")" && pwd)/$(basename "$lib")
cc=${CC:-gcc}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cat >"$work/probe.c" <<'EOF'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static long long ns(clockid_t id) {
  struct timespec ts;
  if (clock_gettime(id, &ts) != 0) { perror("clock_gettime"); exit(3); }
  return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static long long tod_us(void) {
  struct timeval tv;
  if (gettimeofday(&tv, NULL) != 0) { perror("gettimeofday"); exit(3); }
  return (long long)tv.tv_sec * 1000000LL + tv.tv_usec;
}

/* "rate": each thread reads CLOCK_MONOTONIC until the deadline; "gaps": each thread records N values. */
static long long deadline_ns;
static int gap_reads;
struct worker { pthread_t thread; long long reads; long long *values; };

static void *rate_worker(void *arg) {
  struct worker *w = arg;
  while (ns(CLOCK_MONOTONIC) < deadline_ns) w->reads++;
  return NULL;
}

static void *gap_worker(void *arg) {
  struct worker *w = arg;
  for (int i = 0; i < gap_reads; i++) w->values[i] = ns(CLOCK_MONOTONIC);
  return NULL;
}

static int by_value(const void *a, const void *b) {
  long long x = *(const long long *)a, y = *(const long long *)b;
  return (x > y) - (x < y);
}

static void run_workers(int threads, void *(*fn)(void *), struct worker *w) {
  for (int t = 0; t < threads; t++)
    if (pthread_create(&w[t].thread, NULL, fn, &w[t]) != 0) { perror("pthread_create"); exit(3); }
  for (int t = 0; t < threads; t++)
    if (pthread_join(w[t].thread, NULL) != 0) { perror("pthread_join"); exit(3); }
}

static void set_name(const char *name) {
  if (prctl(PR_SET_NAME, (unsigned long)name, 0UL, 0UL, 0UL) != 0) { perror("prctl"); exit(3); }
}

int main(int argc, char **argv) {
  if (argc > 3 && strcmp(argv[1], "rate") == 0) {
    /* rate THREADS MS: reads per second per thread (mean) and in total */
    int threads = atoi(argv[2]);
    long long ms = atoll(argv[3]);
    struct worker w[64] = {0};
    if (threads < 1 || threads > 64) return 2;
    deadline_ns = ns(CLOCK_MONOTONIC) + ms * 1000000LL;
    long long t0 = ns(CLOCK_MONOTONIC);
    run_workers(threads, rate_worker, w);
    double secs = (double)(ns(CLOCK_MONOTONIC) - t0) / 1e9;
    long long total = 0;
    for (int t = 0; t < threads; t++) total += w[t].reads;
    long long lo = w[0].reads, hi = w[0].reads;
    for (int t = 1; t < threads; t++) {
      if (w[t].reads < lo) lo = w[t].reads;
      if (w[t].reads > hi) hi = w[t].reads;
    }
    /* mean per thread, total, slowest thread, fastest thread (reads per second) */
    printf("%.0f %.0f %.0f %.0f\n", (double)total / secs / threads, (double)total / secs,
           (double)lo / secs, (double)hi / secs);
    return 0;
  }
  if (argc > 3 && strcmp(argv[1], "gaps") == 0) {
    /* gaps THREADS READS SPIN_NS: how many of the sorted values of all threads lie closer than
     * SPIN_NS to their predecessor (0 when one read at a time runs and spins SPIN_NS) */
    int threads = atoi(argv[2]);
    gap_reads = atoi(argv[3]);
    long long spin = atoll(argv[4]);
    struct worker w[64] = {0};
    if (threads < 1 || threads > 64 || gap_reads < 1) return 2;
    long long *all = calloc((size_t)threads * (size_t)gap_reads, sizeof *all);
    if (all == NULL) return 3;
    for (int t = 0; t < threads; t++) w[t].values = all + (size_t)t * (size_t)gap_reads;
    run_workers(threads, gap_worker, w);
    size_t n = (size_t)threads * (size_t)gap_reads;
    qsort(all, n, sizeof *all, by_value);
    long long close = 0;
    for (size_t i = 1; i < n; i++) if (all[i] - all[i - 1] < spin) close++;
    printf("%lld %zu\n", close, n - 1);
    free(all);
    return 0;
  }
  if (argc > 1 && strcmp(argv[1], "count") == 0) {
    /* 1000 monotonic reads outside the window; inside a thread named "fcsim-count-x": 300
     * realtime, 200 monotonic, 100 gettimeofday, 50 monotonic-raw and 400 coarse (not fine). */
    long long sink = 0;
    for (int i = 0; i < 1000; i++) sink += ns(CLOCK_MONOTONIC);
    set_name("fcsim-count-x");
    for (int i = 0; i < 300; i++) sink += ns(CLOCK_REALTIME);
    for (int i = 0; i < 200; i++) sink += ns(CLOCK_MONOTONIC);
    for (int i = 0; i < 100; i++) sink += tod_us();
    for (int i = 0; i < 50; i++) sink += ns(CLOCK_MONOTONIC_RAW);
    for (int i = 0; i < 400; i++) sink += ns(CLOCK_MONOTONIC_COARSE);
    set_name("probe");
    printf("%lld\n", sink & 1);
    if (argc > 2 && strcmp(argv[2], "exit") == 0) exit(0);
    return 0;
  }
  if (argc > 1 && strcmp(argv[1], "librt") == 0) {
    /* As HotSpot 11 does: the clocks taken from dlopen("librt.so.1") + dlsym(handle), which
     * searches librt and its dependencies only. In a thread named "fcsim-count-x": 250 monotonic
     * reads and 50 gettimeofday through those pointers. Then prints 1/0 for: a name the simulator
     * does not know still resolves through the handle (clock_getres), an unknown name gives NULL
     * and a dlerror message, and dlsym(RTLD_NEXT) from this program finds the same gettimeofday as
     * RTLD_DEFAULT (the preloaded one: libc's dlsym saw this program as the caller). */
    void *rt = dlopen("librt.so.1", RTLD_LAZY);
    if (rt == NULL) { fprintf(stderr, "dlopen: %s\n", dlerror()); exit(3); }
    int (*cg)(clockid_t, struct timespec *);
    int (*gt)(struct timeval *, void *);
    void *p = dlsym(rt, "clock_gettime");
    void *q = dlsym(rt, "gettimeofday");
    if (p == NULL || q == NULL) { fprintf(stderr, "dlsym: %s\n", dlerror()); exit(3); }
    memcpy(&cg, &p, sizeof p);
    memcpy(&gt, &q, sizeof q);
    long long sink = 0;
    set_name("fcsim-count-x");
    for (int i = 0; i < 250; i++) {
      struct timespec ts;
      if (cg(CLOCK_MONOTONIC, &ts) != 0) { perror("clock_gettime"); exit(3); }
      sink += ts.tv_nsec;
    }
    for (int i = 0; i < 50; i++) {
      struct timeval tv;
      if (gt(&tv, NULL) != 0) { perror("gettimeofday"); exit(3); }
      sink += tv.tv_usec;
    }
    set_name("probe");
    int other_found = dlsym(rt, "clock_getres") != NULL;
    dlerror();
    int unknown_null = dlsym(rt, "slowclock_no_such_symbol") == NULL && dlerror() != NULL;
    int next_is_default = dlsym(RTLD_NEXT, "gettimeofday") == dlsym(RTLD_DEFAULT, "gettimeofday");
    printf("%d %d %d %lld\n", other_found, unknown_null, next_is_default, sink & 1);
    return 0;
  }
  if (argc > 1 && strcmp(argv[1], "cost") == 0) {
    const int n = 2000000;
    long long sink = 0;
    for (int i = 0; i < n / 10; i++) sink += ns(CLOCK_MONOTONIC); /* warm-up */
    long long t0 = ns(CLOCK_MONOTONIC);
    for (int i = 0; i < n; i++) sink += ns(CLOCK_MONOTONIC);
    long long t1 = ns(CLOCK_MONOTONIC);
    long long c0 = ns(CLOCK_MONOTONIC);
    for (int i = 0; i < n; i++) sink += ns(CLOCK_REALTIME_COARSE);
    long long c1 = ns(CLOCK_MONOTONIC);
    printf("%.1f %.1f %lld\n", (double)(t1 - t0) / n, (double)(c1 - c0) / n, sink & 1);
    return 0;
  }
  /* "step": wall-minus-monotonic offsets (ms) before and after sleeping argv[2] ms. */
  int sleep_ms = argc > 2 ? atoi(argv[2]) : 500;
  long long m0 = ns(CLOCK_MONOTONIC), r0 = ns(CLOCK_REALTIME), c0 = ns(CLOCK_REALTIME_COARSE);
  long long g0 = tod_us();
  time_t s0 = time(NULL);
  usleep((useconds_t)sleep_ms * 1000);
  long long m1 = ns(CLOCK_MONOTONIC), r1 = ns(CLOCK_REALTIME), c1 = ns(CLOCK_REALTIME_COARSE);
  long long g1 = tod_us();
  time_t s1 = time(NULL);
  long long mono_ms = (m1 - m0) / 1000000;
  printf("%lld %lld %lld %lld %lld\n", mono_ms,
         (r1 - r0) / 1000000 - mono_ms, (c1 - c0) / 1000000 - mono_ms,
         (g1 - g0) / 1000 - mono_ms, (long long)(s1 - s0) * 1000 - mono_ms);
  return 0;
}
EOF
"$cc" -O2 -std=c11 -Wall -Wextra -Werror -pthread -o "$work/probe" "$work/probe.c" -ldl

failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
ok() { echo "ok:   $*"; }

echo "== cost of clock_gettime (ns per call): CLOCK_MONOTONIC, CLOCK_REALTIME_COARSE"
read -r plain_m plain_c _ < <("$work/probe" cost)
read -r slow_m slow_c _ < <(env LD_PRELOAD="$lib" "$work/probe" cost)
read -r spin_m spin_c _ < <(env LD_PRELOAD="$lib" SLOWCLOCK_SPIN_NS=500 "$work/probe" cost)
read -r vdso_m vdso_c _ < <(env LD_PRELOAD="$lib" SLOWCLOCK_FINE=vdso "$work/probe" cost)
printf '  %-34s %8s %8s\n' "plain" "$plain_m" "$plain_c"
printf '  %-34s %8s %8s\n' "slowclock (syscall)" "$slow_m" "$slow_c"
printf '  %-34s %8s %8s\n' "slowclock SLOWCLOCK_SPIN_NS=500" "$spin_m" "$spin_c"
printf '  %-34s %8s %8s\n' "slowclock SLOWCLOCK_FINE=vdso" "$vdso_m" "$vdso_c"
awk -v p="$plain_m" -v s="$slow_m" 'BEGIN { exit !(s > p) }' \
  || echo "  note: the preloaded CLOCK_MONOTONIC was not slower than plain here (timing, not checked)"

# A step of DELTA ms at 200 ms; the probe sleeps 500 ms across it.
check_step() {
  local mode=$1 delta=$2
  local out mono r c g s
  out=$(env LD_PRELOAD="$lib" SLOWCLOCK_FINE="$mode" SLOWCLOCK_STEPS="200:$delta" "$work/probe" step 500)
  read -r mono r c g s <<<"$out"
  echo "  mode=$mode step=$delta: monotonic advanced ${mono} ms; extra realtime=${r} coarse=${c} gettimeofday=${g} time()=${s} ms"
  local want=${delta#+}
  # realtime and gettimeofday within 5 ms, coarse within 2 ticks + rounding, time() within 1 s.
  awk -v x="$r" -v w="$want" 'BEGIN { d = x - w; exit !(d >= -5 && d <= 5) }' \
    && ok "CLOCK_REALTIME stepped by $delta ($mode)" || fail "CLOCK_REALTIME off by $r ms, expected $want ($mode)"
  awk -v x="$c" -v w="$want" 'BEGIN { d = x - w; exit !(d >= -25 && d <= 25) }' \
    && ok "CLOCK_REALTIME_COARSE stepped by $delta ($mode)" || fail "CLOCK_REALTIME_COARSE off by $c ms, expected $want ($mode)"
  awk -v x="$g" -v w="$want" 'BEGIN { d = x - w; exit !(d >= -5 && d <= 5) }' \
    && ok "gettimeofday stepped by $delta ($mode)" || fail "gettimeofday off by $g ms, expected $want ($mode)"
  awk -v x="$s" -v w="$want" 'BEGIN { d = x - w; exit !(d >= -1100 && d <= 1100) }' \
    && ok "time() stepped by $delta ($mode)" || fail "time() off by $s ms, expected $want ($mode)"
  awk -v x="$mono" 'BEGIN { exit !(x >= 490 && x <= 2000) }' \
    && ok "CLOCK_MONOTONIC not stepped ($mode)" || fail "CLOCK_MONOTONIC advanced $mono ms over a 500 ms sleep ($mode)"
}

echo "== wall-clock steps"
check_step syscall +5000
check_step syscall -10000
check_step vdso +5000

echo "== no step configured"
read -r mono r _ <<<"$(env LD_PRELOAD="$lib" "$work/probe" step 100)"
awk -v x="$r" 'BEGIN { exit !(x >= -5 && x <= 5) }' && ok "no shift without SLOWCLOCK_STEPS" || fail "realtime moved by $r ms without steps"

echo "== bad settings are named and ignored"
for setting in "SLOWCLOCK_SPIN_NS=abc" "SLOWCLOCK_STEPS=200:+x" "SLOWCLOCK_FINE=fast" "SLOWCLOCK_STEPS=500:1,100:1" \
    "SLOWCLOCK_SERIALIZE=yes" \
    "SLOWCLOCK_COUNT_THREAD=a-name-longer-than-15"; do
  name=${setting%%=*}
  err=$(env LD_PRELOAD="$lib" "$setting" "$work/probe" step 10 2>&1 >/dev/null)
  lines=$(printf '%s\n' "$err" | grep -c . || true)
  if [[ "$err" == *"$name"* && "$lines" -eq 1 ]]; then ok "$setting -> $err"; else fail "$setting gave: '$err'"; fi
done

echo "== HPET-like serialisation (SLOWCLOCK_SERIALIZE)"
# Serialised, each read's syscall is followed by its spin before the next read may start, so the
# CLOCK_MONOTONIC values of all threads, sorted, lie at least SLOWCLOCK_SPIN_NS apart.
for ser in 1; do
  read -r close gaps < <(env LD_PRELOAD="$lib" SLOWCLOCK_SPIN_NS=2000 SLOWCLOCK_SERIALIZE="$ser" "$work/probe" gaps 4 5000 2000)
  [ "$close" -eq 0 ] && ok "SLOWCLOCK_SERIALIZE=$ser: 4 threads' reads never overlap ($gaps gaps >= 2000 ns)" \
    || fail "SLOWCLOCK_SERIALIZE=$ser: $close of $gaps gaps under 2000 ns: reads overlapped"
done
read -r close gaps < <(env LD_PRELOAD="$lib" SLOWCLOCK_SPIN_NS=2000 "$work/probe" gaps 4 5000 2000)
echo "  not serialised: $close of $gaps gaps under 2000 ns (overlaps, when threads ran at once; not checked)"
# Queued, turns of 2000 ns never overlap and each read waits out its own, so 4 threads together make
# at most one read per 2000 ns: 500,000 a second (1% slack for the clock reads around the window).
# Only where the same threads unserialised beat that bound can overlapping turns show.
read -r _ free _ _ < <(env LD_PRELOAD="$lib" SLOWCLOCK_SPIN_NS=2000 "$work/probe" rate 4 300)
read -r _ total _ _ < <(env LD_PRELOAD="$lib" SLOWCLOCK_SPIN_NS=2000 SLOWCLOCK_SERIALIZE=queue "$work/probe" rate 4 300)
if awk -v x="$total" 'BEGIN { exit !(x > 505000) }'; then
  fail "SLOWCLOCK_SERIALIZE=queue: 4 threads made $total reads/s, more than one per 2000 ns: turns overlapped"
elif awk -v x="$free" 'BEGIN { exit !(x > 505000) }'; then
  ok "SLOWCLOCK_SERIALIZE=queue: 4 threads made $total reads/s in all, at most one per 2000 ns ($free unserialised)"
else
  echo "  SLOWCLOCK_SERIALIZE=queue: $total reads/s in all, under the bound, but not checked: unserialised the same threads made only $free (busy CPUs)"
fi
echo "  reads/s with SLOWCLOCK_SPIN_NS=500 (timing, not checked; other load on the machine shows here):"
printf '  %-24s %8s %12s %12s %12s %12s\n' "" threads "per thread" total slowest fastest
for ser in 0 1 queue; do
  for threads in 1 2 4; do
    read -r mean total lo hi < <(env LD_PRELOAD="$lib" SLOWCLOCK_SPIN_NS=500 SLOWCLOCK_SERIALIZE="$ser" "$work/probe" rate "$threads" 500)
    printf '  %-24s %8s %12s %12s %12s %12s\n' "SLOWCLOCK_SERIALIZE=$ser" "$threads" "$mean" "$total" "$lo" "$hi"
  done
done

echo "== read counts (SLOWCLOCK_COUNT)"
# expect KEY VALUE FILE: the line KEY=VALUE is in FILE.
expect() {
  if grep -qx "$1=$2" "$3"; then ok "$1=$2 ($4)"; else fail "$1 is not $2 ($4): $(tr '\n' ' ' <"$3")"; fi
}
for ending in return exit; do
  for mode in syscall vdso; do
    env LD_PRELOAD="$lib" SLOWCLOCK_FINE="$mode" SLOWCLOCK_COUNT="$work/count-%p.txt" "$work/probe" count "$ending" >/dev/null
    files=("$work"/count-*.txt)
    if [ "${#files[@]}" -ne 1 ] || [ ! -f "${files[0]}" ]; then
      fail "no count file with the pid in its name ($mode, main $ending)"; continue
    fi
    counts=${files[0]}
    what="$mode, main $ending"
    expect fine_reads_total 1650 "$counts" "$what"
    expect fine_reads_total_monotonic 1200 "$counts" "$what"
    expect fine_reads_in_counted_threads 650 "$counts" "$what"
    expect fine_reads_in_counted_threads_realtime 300 "$counts" "$what"
    expect fine_reads_in_counted_threads_monotonic 200 "$counts" "$what"
    expect fine_reads_in_counted_threads_gettimeofday 100 "$counts" "$what"
    expect fine_reads_in_counted_threads_other 50 "$counts" "$what"
    rm -f "$counts"
  done
done
out=$(env LD_PRELOAD="$lib" SLOWCLOCK_COUNT=stderr SLOWCLOCK_COUNT_THREAD=other "$work/probe" count 2>&1 >/dev/null)
printf '%s\n' "$out" >"$work/stderr-counts.txt"
expect fine_reads_total 1650 "$work/stderr-counts.txt" "on stderr"
expect fine_reads_in_counted_threads 0 "$work/stderr-counts.txt" "SLOWCLOCK_COUNT_THREAD=other"
out=$(env LD_PRELOAD="$lib" SLOWCLOCK_COUNT=stderr SLOWCLOCK_COUNT_THREAD=none "$work/probe" count 2>&1 >/dev/null)
if [[ "$out" == *fine_reads_total=1650* && "$out" != *counted_threads* ]]; then
  ok "SLOWCLOCK_COUNT_THREAD=none counts only the total"
else
  fail "SLOWCLOCK_COUNT_THREAD=none gave: $out"
fi
out=$(env LD_PRELOAD="$lib" "$work/probe" count 2>&1 >/dev/null)
[ -z "$out" ] && ok "no counts without SLOWCLOCK_COUNT" || fail "counts without SLOWCLOCK_COUNT: $out"

echo "== clocks looked up through a library handle (dlopen librt.so.1 + dlsym, as HotSpot 11 does)"
for mode in syscall vdso; do
  read -r other_found unknown_null next_is_default _ < <(env LD_PRELOAD="$lib" SLOWCLOCK_FINE="$mode" \
    SLOWCLOCK_COUNT="$work/librt-counts.txt" "$work/probe" librt)
  what="$mode, via dlsym(librt handle)"
  expect fine_reads_in_counted_threads_monotonic 250 "$work/librt-counts.txt" "$what"
  expect fine_reads_in_counted_threads_gettimeofday 50 "$work/librt-counts.txt" "$what"
  rm -f "$work/librt-counts.txt"
  [ "$other_found" = 1 ] && ok "dlsym(librt, \"clock_getres\") still resolves ($mode)" \
    || fail "dlsym(librt, \"clock_getres\") gave NULL under the simulator ($mode)"
  [ "$unknown_null" = 1 ] && ok "dlsym of an unknown name gives NULL and a dlerror message ($mode)" \
    || fail "dlsym of an unknown name did not fail with a dlerror message ($mode)"
  [ "$next_is_default" = 1 ] && ok "dlsym(RTLD_NEXT) still resolves relative to its caller ($mode)" \
    || fail "dlsym(RTLD_NEXT, \"gettimeofday\") from the program skipped the preloaded one ($mode)"
done

if [ "$failures" -ne 0 ]; then
  echo "slowclock-check: $failures check(s) failed"
  exit 1
fi
echo "slowclock-check: all checks passed"
