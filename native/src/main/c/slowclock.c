/*
 * slowclock: an LD_PRELOAD library that makes this machine's clocks behave like a slow
 * clocksource (hpet, acpi_pm, a Xen guest without a stable pvclock), for tests and benchmarks.
 *
 *   LD_PRELOAD=native/target/libslowclock.so java ...
 *
 * What it does
 * - Every *fine* read (clock_gettime with CLOCK_REALTIME, CLOCK_MONOTONIC, CLOCK_MONOTONIC_RAW,
 *   CLOCK_BOOTTIME, CLOCK_TAI; gettimeofday) becomes a real system call, as the vDSO does when the
 *   clocksource has no user-space read path, optionally followed by a busy wait of
 *   SLOWCLOCK_SPIN_NS nanoseconds to mimic the cost of the hardware access (HPET: about 600 ns).
 * - The _COARSE clocks and every other clock id pass straight through to libc (vDSO-fast).
 * - SLOWCLOCK_STEPS="AT_MS:DELTA_MS,..." steps the wall clock: from AT_MS milliseconds after this
 *   library was loaded (measured on the real CLOCK_MONOTONIC), CLOCK_REALTIME,
 *   CLOCK_REALTIME_COARSE, CLOCK_TAI, gettimeofday and time() are shifted by the sum of the
 *   DELTA_MS of every step reached so far. Monotonic clocks are never shifted.
 * - SLOWCLOCK_MONO_PPM="AT_MS:PPM" changes the rate of CLOCK_MONOTONIC: from AT_MS milliseconds
 *   after load (real CLOCK_MONOTONIC) it runs PPM parts per million fast (or slow, if negative),
 *   continuously and never backwards. Only CLOCK_MONOTONIC (what System.nanoTime and fastclock's
 *   TSC sampling read); the TSC itself, CLOCK_MONOTONIC_RAW/_COARSE and the wall clocks keep
 *   their rate, so a TSC clock calibrated before AT_MS no longer agrees with CLOCK_MONOTONIC.
 * - SLOWCLOCK_COARSE_LAG="AT_MS:LAG_MS,..." holds clock_gettime(CLOCK_REALTIME_COARSE) back: from
 *   AT_MS milliseconds after load (real CLOCK_MONOTONIC) it reads LAG_MS ms behind what the kernel
 *   gives (the last entry reached counts; before the first, no lag), as when the kernel's tick runs
 *   late (emulation, steal time). Only that clock id; the other clocks and time() are untouched.
 *
 * Environment (read once, when the library is loaded; a bad value prints one line on stderr
 * naming the variable and is ignored)
 *   SLOWCLOCK_FINE       syscall (default): fine reads are real system calls
 *                        vdso: fine reads stay on the real (fast) functions; steps still apply
 *   SLOWCLOCK_SPIN_NS    extra busy wait after each fine read, 0..10000000 ns (default 0)
 *   SLOWCLOCK_SERIALIZE  1: one fine read at a time across the process, its system call and its
 *                        spin together, as HPET serialises reads machine-wide (a waiting thread
 *                        sleeps on a mutex); queue: each read books the next SLOWCLOCK_SPIN_NS the
 *                        simulated counter is free and busy-waits through that turn (below);
 *                        0 (default): reads run in parallel. Ignored with SLOWCLOCK_FINE=vdso.
 *   SLOWCLOCK_STEPS      up to 32 steps "AT_MS:DELTA_MS" separated by commas, AT_MS >= 0 and
 *                        non-decreasing, DELTA_MS signed (e.g. "2000:+5000,4000:-10000")
 *   SLOWCLOCK_MONO_PPM   "AT_MS:PPM", AT_MS >= 0, PPM signed in -100000..100000 (e.g. "1500:+5000")
 *   SLOWCLOCK_COARSE_LAG up to 32 "AT_MS:LAG_MS" separated by commas, AT_MS >= 0 non-decreasing,
 *                        LAG_MS in 0..60000 (e.g. "0:6,3000:40")
 *   SLOWCLOCK_COUNT      counts the fine reads (in both SLOWCLOCK_FINE modes) and writes the counts
 *                        when the process exits (exit(), a return from main, a JVM's System.exit or
 *                        its main returning; not _exit or a fatal signal): "stderr", or a file path
 *                        (created or truncated; "%p" in it becomes the pid, so that child processes
 *                        inheriting the environment do not overwrite each other). One key=value line
 *                        a figure:
 *                          fine_reads_total=N                        every thread
 *                          fine_reads_total_KIND=N                   KIND: realtime, monotonic,
 *                                                                    other (MONOTONIC_RAW, BOOTTIME,
 *                                                                    TAI), gettimeofday
 *                          fine_reads_in_counted_threads=N           counted threads only (below)
 *                          fine_reads_in_counted_threads_KIND=N
 *   SLOWCLOCK_COUNT_THREAD  with SLOWCLOCK_COUNT: reads by a thread whose name (prctl PR_GET_NAME,
 *                        read at each fine read) starts with this prefix are also counted apart
 *                        (default "fcsim-count", at most 15 bytes; "none": no per-thread counts and
 *                        no prctl per read). A Java thread renamed with Thread.setName gets the
 *                        native name at once (HotSpot, current thread, JDK 17 and 25, main thread
 *                        included), so a test renames its thread around the workload it counts.
 *                        slowclock_counted_reads() (exported) returns their count so far, so one
 *                        process can count several workloads apart.
 *
 * Look-ups by name: dlsym(handle, "clock_gettime"), "gettimeofday" or "time" returns this
 * library's function for every handle but RTLD_NEXT. HotSpot 11 needs it: os::Linux::clock_init()
 * takes System.nanoTime's clock_gettime from dlopen("librt.so.1") + dlsym(handle, ...), which
 * searches librt and its dependencies only and so bypasses LD_PRELOAD (JDK 17 and later call
 * clock_gettime through the ordinary binding). Every other look-up, and RTLD_NEXT, goes to libc's
 * dlsym as a tail call, so that libc still sees the caller's return address (RTLD_NEXT and
 * RTLD_DEFAULT depend on it). Not covered: dlvsym (this library reaches libc's dlsym through it, so
 * it is left alone; no JDK looks a clock up with it) and a clock read with a raw system call or a
 * vDSO symbol looked up by its own name (__vdso_clock_gettime).
 *
 * The hot path allocates nothing; its only shared state is a lock-free atomic counter of the steps
 * reached, with SLOWCLOCK_COUNT relaxed atomic read counters, with SLOWCLOCK_SERIALIZE=1 one
 * mutex held across the system call and the spin, and with SLOWCLOCK_SERIALIZE=queue one atomic
 * (when the simulated counter is next free).
 *
 * Serialisation: a waiter must sleep, not spin. A spin lock held across the system call collapsed
 * under vCPU preemption, and so did a ticket lock that spins 20 us and then yields (2 threads on
 * this 2-vCPU VM under other load: 16-24 k reads/s in total against 505-659 k with the mutex): a
 * fair lock hands over to a waiter that may not be running. With the mutex, SLOWCLOCK_SPIN_NS=500,
 * one thread made 1.45-1.48 M reads/s and two threads 0.61 M each (1.22 M in total; 0.69-0.86 M
 * each without serialisation); native/src/test/slowclock-check.sh prints the rates on your machine
 * (docs/SIMULATOR.md has the command) and checks by the values they return that reads never overlap.
 *
 * The mutex overstates a real HPET on busy CPUs: a reader that loses its CPU while it holds the
 * mutex holds up every other reader until it runs again (milliseconds), while an HPET read is one
 * instruction that no preemption splits. SLOWCLOCK_SERIALIZE=queue models the counter as the
 * hardware does: a queue that serves one read per SLOWCLOCK_SPIN_NS. A reader books its turn (one
 * atomic compare-and-swap), busy-waits until its turn has ended (as a CPU stalls on a queued MMIO
 * read), then makes its system call; a reader preempted meanwhile delays only itself, since its
 * turn runs out in real time. Alone, a read costs what it costs unserialised. Turns never overlap,
 * so over any window the process makes at most one read per SLOWCLOCK_SPIN_NS, give or take one per
 * thread (slowclock-check.sh checks it by the rate); the system calls themselves, and the values
 * they return, are not spaced out. With SLOWCLOCK_SPIN_NS=0 there is no queue.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#define NANOS_PER_SECOND 1000000000LL
#define NANOS_PER_MILLI 1000000LL
#define MAX_STEPS 32
#define MAX_COARSE_LAG_MS 60000LL
/* Bound on |AT_MS| and |cumulative DELTA_MS|: about 31 years; keeps every sum far from overflow. */
#define MAX_ABS_MS 1000000000000LL
#define MAX_SPIN_NS 10000000LL
/* 10 %: keeps (elapsed ms) * PPM far from overflow for any uptime. */
#define MAX_ABS_PPM 100000LL

typedef int (*clock_gettime_fn)(clockid_t, struct timespec *);
typedef int (*gettimeofday_fn)(struct timeval *, void *);
typedef time_t (*time_fn)(time_t *);
typedef void *(*dlsym_fn)(void *, const char *);

/* Written only by the constructor, before the application runs; read-only afterwards. */
static clock_gettime_fn real_clock_gettime;
static gettimeofday_fn real_gettimeofday;
static time_fn real_time;
static int fine_syscall = 1;
static long long spin_ns;
static int step_count;
static long long step_at_ns[MAX_STEPS];     /* real CLOCK_MONOTONIC, absolute */
static long long step_cum_ms[MAX_STEPS];    /* cumulative shift once step i is reached */

/* Number of steps reached so far; only ever increases. */
static atomic_int steps_reached;

static int coarse_lag_count;
static long long coarse_lag_at_ns[MAX_STEPS]; /* real CLOCK_MONOTONIC, absolute */
static long long coarse_lag_ms[MAX_STEPS];

static int mono_ppm_set;
static long long mono_ppm_at_ns; /* real CLOCK_MONOTONIC, absolute */
static long long mono_ppm;

/* ---- counting fine reads (SLOWCLOCK_COUNT, SLOWCLOCK_COUNT_THREAD) ---- */

enum read_kind { KIND_REALTIME, KIND_MONOTONIC, KIND_OTHER, KIND_GETTIMEOFDAY, KIND_COUNT };
static const char *const kind_names[KIND_COUNT] = {"realtime", "monotonic", "other", "gettimeofday"};

/* One cache line each, so threads counting different kinds do not share a line. */
struct read_counter {
  _Alignas(64) atomic_ullong n;
};

static int count_enabled;
static char count_path[PATH_MAX]; /* "stderr" or a path; %p is replaced by the pid at exit */
static int count_by_thread;
static char count_thread_prefix[16]; /* a thread name has at most 15 bytes */
static size_t count_thread_prefix_len;
static struct read_counter reads_all[KIND_COUNT];
static struct read_counter reads_in_counted_threads[KIND_COUNT];

static int in_counted_thread(void) {
  char name[16] = {0};
  if (prctl(PR_GET_NAME, (unsigned long)name, 0UL, 0UL, 0UL) != 0) {
    return 0;
  }
  return strncmp(name, count_thread_prefix, count_thread_prefix_len) == 0;
}

static void count_read(enum read_kind kind) {
  if (!count_enabled) {
    return;
  }
  atomic_fetch_add_explicit(&reads_all[kind].n, 1, memory_order_relaxed);
  if (count_by_thread && in_counted_thread()) {
    atomic_fetch_add_explicit(&reads_in_counted_threads[kind].n, 1, memory_order_relaxed);
  }
}

static enum read_kind kind_of(clockid_t id) {
  switch (id) {
    case CLOCK_REALTIME:
      return KIND_REALTIME;
    case CLOCK_MONOTONIC:
      return KIND_MONOTONIC;
    default:
      return KIND_OTHER;
  }
}

static inline void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  __asm__ __volatile__("yield" ::: "memory");
#endif
}

/* The real CLOCK_MONOTONIC: vDSO through libc when resolved, the raw system call otherwise. */
static long long real_monotonic_ns(void) {
  struct timespec ts;
  int rc = real_clock_gettime != NULL ? real_clock_gettime(CLOCK_MONOTONIC, &ts)
                                      : (int)syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &ts);
  if (rc != 0) {
    return 0; /* CLOCK_MONOTONIC cannot fail with a valid pointer; 0 only delays steps. */
  }
  return (long long)ts.tv_sec * NANOS_PER_SECOND + ts.tv_nsec;
}

/* ---- HPET-like serialisation (SLOWCLOCK_SERIALIZE) ---- */

enum serialization { SERIAL_NONE, SERIAL_MUTEX, SERIAL_QUEUE };
static enum serialization serialize;

/*
 * One pthread mutex: a contended waiter sleeps in the kernel (futex) instead of spinning, so a
 * holder that loses its CPU (vCPU preemption, more threads than CPUs) does not stall everyone.
 */
static pthread_mutex_t read_mutex = PTHREAD_MUTEX_INITIALIZER;

/*
 * Set while this thread is inside the serialised section, so that a signal handler reading the
 * clock there does not wait for a lock its own thread holds. Initial-exec: no allocation, so it
 * is safe in a signal handler.
 */
static __thread volatile sig_atomic_t in_section __attribute__((tls_model("initial-exec")));

/* Enters the section where one fine read runs at a time; returns whether it must be left. */
static int section_enter(void) {
  if (serialize != SERIAL_MUTEX || in_section) {
    return 0;
  }
  in_section = 1; /* before the lock: a signal arriving after it must not lock again */
  atomic_signal_fence(memory_order_seq_cst);
  if (pthread_mutex_lock(&read_mutex) != 0) {
    in_section = 0;
    return 0; /* cannot happen for a default mutex; read unserialised rather than fail */
  }
  return 1;
}

static void section_leave(int entered) {
  if (!entered) {
    return;
  }
  if (pthread_mutex_unlock(&read_mutex) != 0) {
    /* cannot happen: this thread holds it */
  }
  atomic_signal_fence(memory_order_seq_cst);
  in_section = 0;
}

/* A child of fork() has only the forking thread, which holds no section: start unlocked. */
static void section_reset_in_child(void) {
  pthread_mutex_t unlocked = PTHREAD_MUTEX_INITIALIZER;
  memcpy(&read_mutex, &unlocked, sizeof unlocked);
  in_section = 0;
}

static void spin_until(long long deadline_ns) {
  while (real_monotonic_ns() < deadline_ns) {
    cpu_relax();
  }
}

/*
 * SLOWCLOCK_SERIALIZE=queue: the real CLOCK_MONOTONIC at which the simulated counter is next free.
 * Relaxed is enough: the compare-and-swap orders the bookings among themselves, and no other data
 * is published through it.
 */
static _Atomic long long queue_free_at_ns;
/* A signal handler may book a turn while its thread is inside queue_book: no lock may hide in it. */
_Static_assert(ATOMIC_LLONG_LOCK_FREE == 2, "SLOWCLOCK_SERIALIZE=queue needs a lock-free atomic long long");

/* Books the next turn of spin_ns on the simulated counter; returns when the turn starts. */
static long long queue_book(void) {
  long long now = real_monotonic_ns();
  long long free_at = atomic_load_explicit(&queue_free_at_ns, memory_order_relaxed);
  long long start;
  do {
    start = free_at > now ? free_at : now;
  } while (!atomic_compare_exchange_weak_explicit(&queue_free_at_ns, &free_at, start + spin_ns,
                                                  memory_order_relaxed, memory_order_relaxed));
  return start;
}

/*
 * Runs one slow fine read (read(id, out)) as the settings ask: serialised by the mutex or the
 * queue or not at all, followed by the spin.
 */
static int slow_read(int (*read)(clockid_t, void *), clockid_t id, void *out) {
  if (serialize == SERIAL_QUEUE && spin_ns > 0) {
    /* The turn is the hardware access; the system call around it runs on each CPU in parallel. */
    spin_until(queue_book() + spin_ns);
    return read(id, out);
  }
  int entered = section_enter();
  int rc = read(id, out);
  if (spin_ns > 0 && fine_syscall) {
    spin_until(real_monotonic_ns() + spin_ns);
  }
  section_leave(entered);
  return rc;
}

static int syscall_clock_gettime(clockid_t id, void *tp) {
  return (int)syscall(SYS_clock_gettime, id, tp);
}

/* The id is unused: gettimeofday has one clock. */
static int syscall_gettimeofday(clockid_t id, void *tv_and_tz) {
  (void)id;
  void **args = tv_and_tz;
  return (int)syscall(SYS_gettimeofday, args[0], args[1]);
}

/* Cumulative wall-clock shift in ms for the steps reached so far. */
static long long current_shift_ms(void) {
  if (step_count == 0) {
    return 0;
  }
  int reached = atomic_load_explicit(&steps_reached, memory_order_acquire);
  if (reached < step_count) {
    long long now = real_monotonic_ns();
    int r = reached;
    while (r < step_count && now >= step_at_ns[r]) {
      r++;
    }
    if (r > reached) {
      /* Another thread may have advanced further meanwhile: only ever move forward. */
      int expected = reached;
      while (expected < r &&
             !atomic_compare_exchange_weak_explicit(&steps_reached, &expected, r,
                                                    memory_order_acq_rel, memory_order_acquire)) {
      }
      reached = expected > r ? expected : r;
    }
  }
  return reached == 0 ? 0 : step_cum_ms[reached - 1];
}

static void shift_timespec(struct timespec *tp, long long ms) {
  long long sec = (long long)tp->tv_sec + ms / 1000;
  long long nsec = (long long)tp->tv_nsec + (ms % 1000) * NANOS_PER_MILLI;
  if (nsec < 0) {
    nsec += NANOS_PER_SECOND;
    sec -= 1;
  } else if (nsec >= NANOS_PER_SECOND) {
    nsec -= NANOS_PER_SECOND;
    sec += 1;
  }
  tp->tv_sec = (time_t)sec;
  tp->tv_nsec = (long)nsec;
}

static void shift_timeval(struct timeval *tv, long long ms) {
  long long sec = (long long)tv->tv_sec + ms / 1000;
  long long usec = (long long)tv->tv_usec + (ms % 1000) * 1000;
  if (usec < 0) {
    usec += 1000000;
    sec -= 1;
  } else if (usec >= 1000000) {
    usec -= 1000000;
    sec += 1;
  }
  tv->tv_sec = (time_t)sec;
  tv->tv_usec = (suseconds_t)usec;
}

/*
 * CLOCK_MONOTONIC at the changed rate: unchanged up to mono_ppm_at_ns, then every real ns counts
 * 1 + mono_ppm / 1e6 ns. With |mono_ppm| < 1e6 the shift moves by at most 1 ns per real ns (the
 * truncations included), so the result never decreases.
 */
static void skew_monotonic(struct timespec *tp) {
  long long t = (long long)tp->tv_sec * NANOS_PER_SECOND + tp->tv_nsec;
  if (t <= mono_ppm_at_ns) {
    return;
  }
  long long elapsed = t - mono_ppm_at_ns;
  /* Split so neither product can overflow: elapsed / 1e6 < 1e13 for any uptime, |ppm| <= 1e5. */
  long long shift = (elapsed / 1000000LL) * mono_ppm + (elapsed % 1000000LL) * mono_ppm / 1000000LL;
  t += shift;
  tp->tv_sec = (time_t)(t / NANOS_PER_SECOND);
  tp->tv_nsec = (long)(t % NANOS_PER_SECOND);
}

static int is_fine(clockid_t id) {
  switch (id) {
    case CLOCK_REALTIME:
    case CLOCK_MONOTONIC:
    case CLOCK_MONOTONIC_RAW:
    case CLOCK_BOOTTIME:
#ifdef CLOCK_TAI
    case CLOCK_TAI:
#endif
      return 1;
    default:
      return 0;
  }
}

static int is_wall(clockid_t id) {
  switch (id) {
    case CLOCK_REALTIME:
    case CLOCK_REALTIME_COARSE:
#ifdef CLOCK_TAI
    case CLOCK_TAI:
#endif
      return 1;
    default:
      return 0;
  }
}

/* The lag SLOWCLOCK_COARSE_LAG asks for now, in ms (0 before its first entry). */
static long long current_coarse_lag_ms(void) {
  long long now = real_monotonic_ns();
  long long lag = 0;
  for (int i = 0; i < coarse_lag_count && now >= coarse_lag_at_ns[i]; i++) {
    lag = coarse_lag_ms[i];
  }
  return lag;
}

int clock_gettime(clockid_t id, struct timespec *tp) {
  int rc;
  int fine = is_fine(id);
  if (fine) {
    count_read(kind_of(id));
  }
  if (fine && (fine_syscall || real_clock_gettime == NULL)) {
    rc = slow_read(syscall_clock_gettime, id, tp);
  } else if (real_clock_gettime != NULL) {
    rc = real_clock_gettime(id, tp);
  } else {
    rc = (int)syscall(SYS_clock_gettime, id, tp);
  }
  if (rc == 0 && step_count > 0 && is_wall(id)) {
    long long ms = current_shift_ms();
    if (ms != 0) {
      shift_timespec(tp, ms);
    }
  }
  if (rc == 0 && mono_ppm_set && id == CLOCK_MONOTONIC) {
    skew_monotonic(tp);
  }
  if (rc == 0 && coarse_lag_count > 0 && id == CLOCK_REALTIME_COARSE) {
    long long lag = current_coarse_lag_ms();
    if (lag != 0) {
      shift_timespec(tp, -lag);
    }
  }
  return rc;
}

int gettimeofday(struct timeval *restrict tv, void *restrict tz) {
  /* glibc declares tv nonnull, but the kernel accepts NULL: hide the pointer's origin from the
   * optimiser so the NULL check below is neither warned about nor removed. */
  struct timeval *out = tv;
  __asm__("" : "+r"(out));
  int rc;
  count_read(KIND_GETTIMEOFDAY);
  if (fine_syscall || real_gettimeofday == NULL) {
    void *args[2] = {out, tz};
    rc = slow_read(syscall_gettimeofday, CLOCK_REALTIME, args);
  } else {
    rc = real_gettimeofday(out, tz);
  }
  if (rc == 0 && out != NULL && step_count > 0) {
    long long ms = current_shift_ms();
    if (ms != 0) {
      shift_timeval(out, ms);
    }
  }
  return rc;
}

/* time() reads the coarse wall clock (as the vDSO does); only the steps change it. */
time_t time(time_t *tloc) {
  if (step_count == 0 && real_time != NULL) {
    return real_time(tloc);
  }
  struct timespec ts;
  int rc = real_clock_gettime != NULL ? real_clock_gettime(CLOCK_REALTIME_COARSE, &ts)
                                      : (int)syscall(SYS_clock_gettime, CLOCK_REALTIME_COARSE, &ts);
  if (rc != 0) {
    return (time_t)-1;
  }
  long long ms = current_shift_ms();
  if (ms != 0) {
    shift_timespec(&ts, ms);
  }
  if (tloc != NULL) {
    *tloc = ts.tv_sec;
  }
  return ts.tv_sec;
}

/* ---- look-ups by name (dlsym) ---- */

/*
 * libc's dlsym, found through dlvsym (not interposed). Resolved on first use, since another
 * library's constructor may call dlsym before this library's constructor has run; two threads
 * racing here store the same value.
 */
static _Atomic(dlsym_fn) real_dlsym_fn;

static dlsym_fn real_dlsym(void) {
  dlsym_fn fn = atomic_load_explicit(&real_dlsym_fn, memory_order_acquire);
  if (fn == NULL) {
    /* GLIBC_2.34: dlsym moved into libc; GLIBC_2.2.5: the x86-64 base version (libdl before 2.34). */
    static const char *const versions[] = {"GLIBC_2.34", "GLIBC_2.2.5", "GLIBC_2.17"};
    for (size_t i = 0; fn == NULL && i < sizeof versions / sizeof versions[0]; i++) {
      void *found = dlvsym(RTLD_NEXT, "dlsym", versions[i]);
      /* POSIX guarantees that a data pointer from dlsym converts to a function pointer. */
      memcpy(&fn, &found, sizeof fn);
    }
    if (fn == NULL) {
      static const char message[] = "slowclock: cannot find libc's dlsym; aborting\n";
      if (write(STDERR_FILENO, message, sizeof message - 1) < 0) {
        /* nowhere left to say it */
      }
      abort(); /* every dlsym in the process would fail: stop with the reason instead */
    }
    atomic_store_explicit(&real_dlsym_fn, fn, memory_order_release);
  }
  return fn;
}

/* This library's function for a clock it simulates, NULL for any other name. */
static void *simulated_clock(const char *name) {
  if (name == NULL) {
    return NULL;
  }
  clock_gettime_fn c = clock_gettime;
  gettimeofday_fn g = gettimeofday;
  time_fn t = time;
  void *p = NULL;
  if (strcmp(name, "clock_gettime") == 0) {
    memcpy(&p, &c, sizeof p);
  } else if (strcmp(name, "gettimeofday") == 0) {
    memcpy(&p, &g, sizeof p);
  } else if (strcmp(name, "time") == 0) {
    memcpy(&p, &t, sizeof p);
  }
  return p;
}

void *dlsym(void *restrict handle, const char *restrict name) {
  if (handle != RTLD_NEXT) {
    void *own = simulated_clock(name);
    if (own != NULL) {
      return own;
    }
  }
  dlsym_fn fn = real_dlsym();
  /* Must be a tail call: libc's dlsym must see the caller's return address, not this library's.
   * GCC emits one from -O2 on (build.sh); slowclock-check.sh fails if it did not (RTLD_NEXT). */
#if defined(__has_attribute)
#if __has_attribute(musttail)
  __attribute__((musttail))
#endif
#endif
  return fn(handle, name);
}

/* ---- configuration, read once at load time ---- */

static void warn(const char *name, const char *value, const char *accepted) {
  fprintf(stderr, "slowclock: ignoring %s=\"%s\": expected %s\n", name, value, accepted);
}

/* Parses a whole decimal integer (optional sign) in [lo, hi]; 0 on success. */
static int parse_ll(const char *s, const char *end, long long lo, long long hi, long long *out) {
  if (s == end) {
    return -1;
  }
  char buf[32];
  size_t len = (size_t)(end - s);
  if (len >= sizeof buf) {
    return -1;
  }
  memcpy(buf, s, len);
  buf[len] = '\0';
  if (!(buf[0] == '+' || buf[0] == '-' || (buf[0] >= '0' && buf[0] <= '9'))) {
    return -1;
  }
  char *stop = NULL;
  errno = 0;
  long long v = strtoll(buf, &stop, 10);
  if (errno != 0 || stop == buf || *stop != '\0' || v < lo || v > hi) {
    return -1;
  }
  *out = v;
  return 0;
}

/*
 * Parses "AT_MS:VALUE,AT_MS:VALUE,..." (AT_MS in ms after load, never decreasing; each VALUE within
 * [vlo, vhi]) into at[] (CLOCK_MONOTONIC ns) and val[]; returns how many, or -1 for anything else
 * (empty, a trailing comma, more than MAX_STEPS).
 */
static int parse_schedule(const char *value, long long load_ns, long long vlo, long long vhi,
                          long long at[MAX_STEPS], long long val[MAX_STEPS]) {
  int n = 0;
  long long last_at = 0;
  const char *p = value;
  while (*p != '\0') {
    const char *comma = strchr(p, ',');
    const char *end = comma != NULL ? comma : p + strlen(p);
    const char *colon = memchr(p, ':', (size_t)(end - p));
    long long a;
    long long v;
    if (n == MAX_STEPS || colon == NULL || parse_ll(p, colon, 0, MAX_ABS_MS, &a) != 0 ||
        parse_ll(colon + 1, end, vlo, vhi, &v) != 0 || a < last_at) {
      return -1;
    }
    at[n] = load_ns + a * NANOS_PER_MILLI;
    val[n] = v;
    last_at = a;
    n++;
    if (comma == NULL) {
      break;
    }
    p = comma + 1;
    if (*p == '\0') {
      return -1; /* trailing comma */
    }
  }
  return n == 0 ? -1 : n;
}

/* SLOWCLOCK_STEPS: each step's delta, kept as the running total the wall clock is moved by. */
static int parse_steps(const char *value, long long load_ns) {
  long long at[MAX_STEPS];
  long long cum[MAX_STEPS];
  int n = parse_schedule(value, load_ns, -MAX_ABS_MS, MAX_ABS_MS, at, cum);
  if (n < 0) {
    return -1;
  }
  long long total = 0;
  for (int i = 0; i < n; i++) {
    total += cum[i];
    if (total < -MAX_ABS_MS || total > MAX_ABS_MS) {
      return -1;
    }
    cum[i] = total;
  }
  memcpy(step_at_ns, at, sizeof at);
  memcpy(step_cum_ms, cum, sizeof cum);
  step_count = n;
  return 0;
}

/* SLOWCLOCK_COARSE_LAG: from each time on, CLOCK_REALTIME_COARSE is held back by that many ms. */
static int parse_coarse_lag(const char *value, long long load_ns) {
  long long at[MAX_STEPS];
  long long lag[MAX_STEPS];
  int n = parse_schedule(value, load_ns, 0, MAX_COARSE_LAG_MS, at, lag);
  if (n < 0) {
    return -1;
  }
  memcpy(coarse_lag_at_ns, at, sizeof at);
  memcpy(coarse_lag_ms, lag, sizeof lag);
  coarse_lag_count = n;
  return 0;
}

static int write_all(int fd, const char *buf, size_t len) {
  while (len > 0) {
    ssize_t n = write(fd, buf, len);
    if (n < 0) {
      if (errno == EINTR) {
        continue;
      }
      return -1;
    }
    buf += n;
    len -= (size_t)n;
  }
  return 0;
}

/* count_path with every "%p" replaced by the pid; 0 on success. */
static int expand_count_path(char *out, size_t size) {
  char pid[24];
  int pid_len = snprintf(pid, sizeof pid, "%ld", (long)getpid());
  size_t o = 0;
  for (const char *p = count_path; *p != '\0'; p++) {
    if (p[0] == '%' && p[1] == 'p') {
      if (pid_len < 0 || o + (size_t)pid_len >= size) {
        return -1;
      }
      memcpy(out + o, pid, (size_t)pid_len);
      o += (size_t)pid_len;
      p++;
    } else {
      if (o + 1 >= size) {
        return -1;
      }
      out[o++] = *p;
    }
  }
  out[o] = '\0';
  return 0;
}

static size_t append(char *buf, size_t size, size_t used, const char *name, const char *suffix,
                     unsigned long long value) {
  if (used >= size) {
    return used;
  }
  int n = snprintf(buf + used, size - used, "%s%s=%llu\n", name, suffix, value);
  return n < 0 ? used : used + (size_t)n;
}

static size_t append_group(char *buf, size_t size, size_t used, const char *name,
                           struct read_counter *counters) {
  unsigned long long values[KIND_COUNT];
  unsigned long long sum = 0;
  for (int k = 0; k < KIND_COUNT; k++) {
    values[k] = atomic_load_explicit(&counters[k].n, memory_order_relaxed);
    sum += values[k];
  }
  used = append(buf, size, used, name, "", sum);
  char suffix[32];
  for (int k = 0; k < KIND_COUNT; k++) {
    snprintf(suffix, sizeof suffix, "_%s", kind_names[k]);
    used = append(buf, size, used, name, suffix, values[k]);
  }
  return used;
}

/*
 * The fine reads counted so far in counted threads (every kind; 0 without SLOWCLOCK_COUNT or with
 * SLOWCLOCK_COUNT_THREAD=none). Exported so that a test can count several workloads in one process
 * (through dlsym or JNA, whose calls read no clock) instead of starting a process per workload.
 */
unsigned long long slowclock_counted_reads(void);
unsigned long long slowclock_counted_reads(void) {
  unsigned long long sum = 0;
  for (int k = 0; k < KIND_COUNT; k++) {
    sum += atomic_load_explicit(&reads_in_counted_threads[k].n, memory_order_relaxed);
  }
  return sum;
}

/* Runs at exit (exit(), a return from main, System.exit in a JVM), not on _exit or a signal. */
__attribute__((destructor)) static void slowclock_write_counts(void) {
  if (!count_enabled) {
    return;
  }
  int saved_errno = errno;
  char report[1024];
  size_t used = append_group(report, sizeof report, 0, "fine_reads_total", reads_all);
  if (count_by_thread) {
    used = append_group(report, sizeof report, used, "fine_reads_in_counted_threads",
                        reads_in_counted_threads);
  }
  if (used >= sizeof report) {
    used = sizeof report - 1;
  }
  if (strcmp(count_path, "stderr") == 0) {
    if (write_all(STDERR_FILENO, report, used) != 0) {
      /* nowhere left to say it */
    }
    errno = saved_errno;
    return;
  }
  char path[PATH_MAX];
  if (expand_count_path(path, sizeof path) != 0) {
    fprintf(stderr, "slowclock: SLOWCLOCK_COUNT path too long; counts not written\n");
    errno = saved_errno;
    return;
  }
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    fprintf(stderr, "slowclock: cannot write the counts to %s: %s\n", path, strerror(errno));
  } else {
    if (write_all(fd, report, used) != 0) {
      fprintf(stderr, "slowclock: cannot write the counts to %s: %s\n", path, strerror(errno));
    }
    if (close(fd) != 0) {
      fprintf(stderr, "slowclock: cannot close %s: %s\n", path, strerror(errno));
    }
  }
  errno = saved_errno;
}

__attribute__((constructor)) static void slowclock_init(void) {
  dlsym_fn lookup = real_dlsym();
  void *c = lookup(RTLD_NEXT, "clock_gettime");
  void *g = lookup(RTLD_NEXT, "gettimeofday");
  void *t = lookup(RTLD_NEXT, "time");
  memcpy(&real_clock_gettime, &c, sizeof c);
  memcpy(&real_gettimeofday, &g, sizeof g);
  memcpy(&real_time, &t, sizeof t);
  if (real_clock_gettime == NULL || real_gettimeofday == NULL || real_time == NULL) {
    fprintf(stderr, "slowclock: dlsym(RTLD_NEXT) did not find the libc clocks; using system calls\n");
  }
  long long load_ns = real_monotonic_ns();

  const char *v = getenv("SLOWCLOCK_FINE");
  if (v != NULL && *v != '\0') {
    if (strcmp(v, "syscall") == 0) {
      fine_syscall = 1;
    } else if (strcmp(v, "vdso") == 0) {
      fine_syscall = 0;
    } else {
      warn("SLOWCLOCK_FINE", v, "syscall or vdso");
    }
  }

  v = getenv("SLOWCLOCK_SPIN_NS");
  if (v != NULL && *v != '\0') {
    long long ns;
    if (parse_ll(v, v + strlen(v), 0, MAX_SPIN_NS, &ns) == 0) {
      spin_ns = ns;
    } else {
      warn("SLOWCLOCK_SPIN_NS", v, "an integer number of nanoseconds in 0..10000000");
    }
  }

  v = getenv("SLOWCLOCK_SERIALIZE");
  if (v != NULL && *v != '\0') {
    if (strcmp(v, "0") == 0 || strcmp(v, "1") == 0 || strcmp(v, "queue") == 0) {
      /* With SLOWCLOCK_FINE=vdso nothing is slow to serialise: reads stay on the vDSO. */
      serialize = !fine_syscall || v[0] == '0' ? SERIAL_NONE : v[0] == '1' ? SERIAL_MUTEX : SERIAL_QUEUE;
    } else {
      warn("SLOWCLOCK_SERIALIZE", v, "0, 1 or queue");
    }
    if (serialize == SERIAL_MUTEX) {
      int rc = pthread_atfork(NULL, NULL, section_reset_in_child);
      if (rc != 0) {
        fprintf(stderr, "slowclock: pthread_atfork failed (%s); a forked child may block on the clock\n",
                strerror(rc));
      }
    }
  }

  v = getenv("SLOWCLOCK_STEPS");
  if (v != NULL && *v != '\0' && parse_steps(v, load_ns) != 0) {
    warn("SLOWCLOCK_STEPS", v,
         "up to 32 AT_MS:DELTA_MS pairs separated by commas, AT_MS >= 0 non-decreasing, "
         "e.g. 2000:+5000,4000:-10000");
  }

  v = getenv("SLOWCLOCK_COARSE_LAG");
  if (v != NULL && *v != '\0' && parse_coarse_lag(v, load_ns) != 0) {
    warn("SLOWCLOCK_COARSE_LAG", v,
         "up to 32 AT_MS:LAG_MS pairs separated by commas, AT_MS >= 0 non-decreasing, LAG_MS in 0..60000, "
         "e.g. 0:6,3000:40");
  }

  v = getenv("SLOWCLOCK_MONO_PPM");
  if (v != NULL && *v != '\0') {
    const char *colon = strchr(v, ':');
    long long at;
    long long ppm;
    if (colon != NULL && parse_ll(v, colon, 0, MAX_ABS_MS, &at) == 0 &&
        parse_ll(colon + 1, colon + strlen(colon), -MAX_ABS_PPM, MAX_ABS_PPM, &ppm) == 0) {
      mono_ppm_at_ns = load_ns + at * NANOS_PER_MILLI;
      mono_ppm = ppm;
      mono_ppm_set = 1;
    } else {
      warn("SLOWCLOCK_MONO_PPM", v, "AT_MS:PPM with AT_MS >= 0 and PPM in -100000..100000, e.g. 1500:+5000");
    }
  }

  v = getenv("SLOWCLOCK_COUNT");
  if (v != NULL && *v != '\0') {
    if (strlen(v) < sizeof count_path) {
      memcpy(count_path, v, strlen(v) + 1);
      count_enabled = 1;
    } else {
      warn("SLOWCLOCK_COUNT", v, "stderr or a path shorter than PATH_MAX");
    }
  }

  const char *prefix = "fcsim-count";
  v = getenv("SLOWCLOCK_COUNT_THREAD");
  if (v != NULL && *v != '\0') {
    if (strcmp(v, "none") == 0) {
      prefix = NULL;
    } else if (strlen(v) < sizeof count_thread_prefix) {
      prefix = v;
    } else {
      warn("SLOWCLOCK_COUNT_THREAD", v, "none or a thread-name prefix of at most 15 bytes");
    }
  }
  if (count_enabled && prefix != NULL) {
    count_thread_prefix_len = strlen(prefix);
    memcpy(count_thread_prefix, prefix, count_thread_prefix_len + 1);
    count_by_thread = 1;
  }
  atomic_store_explicit(&steps_reached, 0, memory_order_release);
}
