/*
 * fastclock native library: the clocks the runtime calls through JNI, and the measurements the
 * probe needs (clock cost timed in C, clock resolution, TSC flags, cross-CPU TSC check).
 *
 * Everything that reads a clock goes through libc's clock_gettime so that a slow-clocksource
 * simulator preloaded with LD_PRELOAD is seen exactly as the JVM sees it.
 *
 * Test-only fault injection (build.sh builds these variants into native/target/faults/, never into
 * the jar; the production build defines neither macro, so none of this code is in it):
 *   FC_FAULT_CROSSCPU  the cross-CPU check reports one backward TSC step of FC_FAULT_STEP_TICKS
 *   FC_FAULT_STALLCPU  the cross-CPU check's first worker sleeps FC_FAULT_STALL_SECONDS before its
 *                      first read, as if its CPU were too busy to run it; with the environment variable
 *                      FC_FAULT_STALL_RUNS=N only the process's first N checks do (CPUs busy a while)
 *   FC_FAULT_CALIB     sampleTsc reports every other sample's CLOCK_MONOTONIC FC_FAULT_SKEW_NANOS
 *                      late, so the two halves of any calibration disagree and it never converges
 *   FC_FAULT_DEARJNI   realtimeCoarseMillis (the coarse currentTimeMillis) busy-waits FC_FAULT_JNI_SPINS loop rounds
 *                      (about 1 us) before reading, as if the call into C were dear (the lab's guest
 *                      paid 120 ns for the JNI transition); timed in C (timeCalls) the reads stay cheap
 *   FC_FAULT_BUSYSTART the process's first FC_FAULT_BUSY_CALLS reads of a candidate clock through JNI (coarse,
 *                      TSC) each busy-wait FC_FAULT_BUSY_SPINS loop rounds (tens of us), as if the thread
 *                      timing them were preempted again and again: the start-up's timing from compiled
 *                      Java runs out of its budget, later reads are cheap (busy CPUs at start only)
 */
#define _GNU_SOURCE
#include <jni.h>

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#if defined(__x86_64__)
#include <cpuid.h>
#define FC_X86 1
#else
#define FC_X86 0
#endif

#define NANOS_PER_SECOND 1000000000LL

#if defined(FC_FAULT_CROSSCPU)
#define FC_FAULT_STEP_TICKS 1000u
#endif
#if defined(FC_FAULT_STALLCPU)
#define FC_FAULT_STALL_SECONDS 30
#endif
#if defined(FC_FAULT_DEARJNI)
#define FC_FAULT_JNI_SPINS 1000
static void dear_jni(void) {
    for (volatile int i = 0; i < FC_FAULT_JNI_SPINS; i++) {
    }
}
#define DEAR_JNI() dear_jni()
#else
#define DEAR_JNI() ((void)0)
#endif
#if defined(FC_FAULT_BUSYSTART)
#include <stdatomic.h>
#define FC_FAULT_BUSY_CALLS 3000
#define FC_FAULT_BUSY_SPINS 100000
static atomic_int fc_fault_busy_calls;
static void busy_start(void) {
    if (atomic_fetch_add(&fc_fault_busy_calls, 1) < FC_FAULT_BUSY_CALLS) {
        for (volatile int i = 0; i < FC_FAULT_BUSY_SPINS; i++) {
        }
    }
}
#define BUSY_START() busy_start()
#else
#define BUSY_START() ((void)0)
#endif
#if defined(FC_FAULT_CALIB)
#include <stdatomic.h>
/* 50 us over a 2 ms half: 25,000 ppm each way, far beyond any tolerance the read windows allow. */
#define FC_FAULT_SKEW_NANOS 50000
static atomic_uint fc_fault_samples;
#endif

/* Pseudo clock ids for fc_time_calls: anything that is not a clock_gettime clock. */
#define FC_PSEUDO_RDTSCP (-101)
#define FC_PSEUDO_LFENCE_RDTSC (-102)
#define FC_PSEUDO_GETTIMEOFDAY (-103)
#define FC_PSEUDO_RDTSC (-104)
#define FC_PSEUDO_MFENCE_RDTSC (-105)

/* Flags returned by tscFlags(). */
#define FC_TSC_PRESENT 1
#define FC_TSC_INVARIANT 2 /* CPUID 0x80000007 EDX bit 8: constant and non-stop */
#define FC_TSC_RDTSCP 4    /* CPUID 0x80000001 EDX bit 27 */
#define FC_TSC_HYPERVISOR 8
#define FC_CPU_INTEL 16            /* CPUID 0 vendor GenuineIntel */
#define FC_CPU_AMD 32              /* CPUID 0 vendor AuthenticAMD or HygonGenuine */
#define FC_LFENCE_SERIALIZING 64   /* AMD: CPUID 0x80000021 EAX bit 2, "LFENCE always serializing" */

static inline int64_t ts_to_nanos(const struct timespec *ts) {
    return (int64_t)ts->tv_sec * NANOS_PER_SECOND + ts->tv_nsec;
}

/* Returns nanoseconds, or a negative errno. */
static int64_t read_clock(clockid_t id) {
    struct timespec ts;
    if (clock_gettime(id, &ts) != 0) {
        return -(int64_t)errno;
    }
    return ts_to_nanos(&ts);
}

#if FC_X86
/*
 * Ordered TSC reads for the clock, as the kernel's rdtsc_ordered(): RDTSCP (or LFENCE before
 * RDTSC) waits for every earlier load, so a thread that has seen another thread's published
 * time reads a TSC no earlier than the one behind it. No trailing fence is needed there: the
 * value read is what the caller then stores, so the store cannot pass it.
 */
static inline uint64_t tsc_rdtscp(void) {
    uint32_t lo, hi, aux;
    __asm__ __volatile__("rdtscp" : "=a"(lo), "=d"(hi), "=c"(aux)::"memory");
    return ((uint64_t)hi << 32) | lo;
}

static inline uint64_t tsc_lfence_rdtsc(void) {
    uint32_t lo, hi;
    __asm__ __volatile__("lfence\n\trdtsc" : "=a"(lo), "=d"(hi)::"memory");
    return ((uint64_t)hi << 32) | lo;
}

/*
 * AMD's ordered read for CPUs where LFENCE is not known to be dispatch serialising: Linux used
 * MFENCE before RDTSC on AMD (X86_FEATURE_MFENCE_RDTSC) until it made LFENCE serialising there.
 */
static inline uint64_t tsc_mfence_rdtsc(void) {
    uint32_t lo, hi;
    __asm__ __volatile__("mfence\n\trdtsc" : "=a"(lo), "=d"(hi)::"memory");
    return ((uint64_t)hi << 32) | lo;
}

/*
 * A plain RDTSC: not ordered with the loads before it. Only for currentTimeMillis, whose contract
 * has no ordering clause and a 1 ms budget (see docs/DESIGN-NOTES.md), never for nanoTime.
 */
static inline uint64_t tsc_unordered(void) {
    uint32_t lo, hi;
    __asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
    return ((uint64_t)hi << 32) | lo;
}

/*
 * RDTSCP is not on every x86_64 CPU (QEMU's default CPU model lacks it, and executing it there is
 * SIGILL, which kills the JVM). The checks and sampling windows below use it only where CPUID
 * says it is there; elsewhere MFENCE; LFENCE; RDTSC, which is ordered on Intel and AMD alike.
 */
static int cpu_has_rdtscp(void) {
    unsigned int eax, ebx, ecx, edx;
    return __get_cpuid(0x80000001, &eax, &ebx, &ecx, &edx) && (edx & (1u << 27));
}

static inline uint64_t tsc_ordered_any(int has_rdtscp) {
    if (has_rdtscp) {
        return tsc_rdtscp();
    }
    uint32_t lo, hi;
    __asm__ __volatile__("mfence\n\tlfence\n\trdtsc" : "=a"(lo), "=d"(hi)::"memory");
    return ((uint64_t)hi << 32) | lo;
}

/* For sampling windows: the trailing LFENCE keeps the clock_gettime that follows from starting
   before the TSC read has completed, so the window really brackets it. */
static inline uint64_t tsc_fenced(int has_rdtscp) {
    uint64_t t = tsc_ordered_any(has_rdtscp);
    __asm__ __volatile__("lfence" ::: "memory");
    return t;
}

static int tsc_flags(void) {
    unsigned int eax, ebx, ecx, edx;
    int flags = 0;
    if (__get_cpuid(0, &eax, &ebx, &ecx, &edx)) {
        /* The vendor string is EBX, EDX, ECX. */
        if (ebx == 0x756e6547u && edx == 0x49656e69u && ecx == 0x6c65746eu) flags |= FC_CPU_INTEL; /* GenuineIntel */
        if ((ebx == 0x68747541u && edx == 0x69746e65u && ecx == 0x444d4163u)                  /* AuthenticAMD */
            || (ebx == 0x6f677948u && edx == 0x6e65476eu && ecx == 0x656e6975u)) {           /* HygonGenuine */
            flags |= FC_CPU_AMD;
        }
    }
    if (__get_cpuid(1, &eax, &ebx, &ecx, &edx)) {
        if (edx & (1u << 4)) flags |= FC_TSC_PRESENT;
        if (ecx & (1u << 31)) flags |= FC_TSC_HYPERVISOR;
    }
    if (__get_cpuid(0x80000001, &eax, &ebx, &ecx, &edx) && (edx & (1u << 27))) {
        flags |= FC_TSC_RDTSCP;
    }
    if (__get_cpuid(0x80000007, &eax, &ebx, &ecx, &edx) && (edx & (1u << 8))) {
        flags |= FC_TSC_INVARIANT;
    }
    /* __get_cpuid checks the highest extended leaf first, so this is 0 where the leaf is absent. */
    if ((flags & FC_CPU_AMD) && __get_cpuid(0x80000021, &eax, &ebx, &ecx, &edx) && (eax & (1u << 2))) {
        flags |= FC_LFENCE_SERIALIZING;
    }
    return flags;
}
#else
static inline uint64_t tsc_rdtscp(void) { return 0; }
static inline uint64_t tsc_lfence_rdtsc(void) { return 0; }
static inline uint64_t tsc_mfence_rdtsc(void) { return 0; }
static inline uint64_t tsc_unordered(void) { return 0; }
static inline uint64_t tsc_fenced(int has_rdtscp) { (void)has_rdtscp; return 0; }
static inline uint64_t tsc_ordered_any(int has_rdtscp) { (void)has_rdtscp; return 0; }
static int cpu_has_rdtscp(void) { return 0; }
static int tsc_flags(void) { return 0; }
#endif

/* ---- hot-path clocks ---------------------------------------------------------------------- */

JNIEXPORT jlong JNICALL Java_io_fastclock_clock_NativeClocks_realtimeCoarseMillis(JNIEnv *env, jclass cls) {
    (void)env;
    (void)cls;
    BUSY_START();
    DEAR_JNI();
    struct timespec ts;
    if (clock_gettime(CLOCK_REALTIME_COARSE, &ts) != 0) {
        return -1; /* cannot happen on Linux >= 2.6.32; the runtime checks it once at start */
    }
    return (jlong)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

JNIEXPORT jlong JNICALL Java_io_fastclock_clock_NativeClocks_monotonicCoarseNanos(JNIEnv *env, jclass cls) {
    (void)env;
    (void)cls;
    BUSY_START();
    return (jlong)read_clock(CLOCK_MONOTONIC_COARSE);
}

JNIEXPORT jlong JNICALL Java_io_fastclock_clock_NativeClocks_rdtscp(JNIEnv *env, jclass cls) {
    (void)env;
    (void)cls;
    BUSY_START();
    return (jlong)tsc_rdtscp();
}

JNIEXPORT jlong JNICALL Java_io_fastclock_clock_NativeClocks_lfenceRdtsc(JNIEnv *env, jclass cls) {
    (void)env;
    (void)cls;
    BUSY_START();
    return (jlong)tsc_lfence_rdtsc();
}

JNIEXPORT jlong JNICALL Java_io_fastclock_clock_NativeClocks_mfenceRdtsc(JNIEnv *env, jclass cls) {
    (void)env;
    (void)cls;
    BUSY_START();
    return (jlong)tsc_mfence_rdtsc();
}

JNIEXPORT jlong JNICALL Java_io_fastclock_clock_NativeClocks_rdtsc(JNIEnv *env, jclass cls) {
    (void)env;
    (void)cls;
    BUSY_START();
    return (jlong)tsc_unordered();
}

/* Does nothing: timed from Java, it is the cost of the JNI transition alone (the doctor's limit rows). */
JNIEXPORT jlong JNICALL Java_io_fastclock_clock_NativeClocks_noop(JNIEnv *env, jclass cls) {
    (void)env;
    (void)cls;
    return 0;
}

/* ---- probe support ------------------------------------------------------------------------ */

JNIEXPORT jint JNICALL Java_io_fastclock_clock_NativeClocks_tscFlags(JNIEnv *env, jclass cls) {
    (void)env;
    (void)cls;
    return tsc_flags();
}

JNIEXPORT jboolean JNICALL Java_io_fastclock_clock_NativeClocks_isX86(JNIEnv *env, jclass cls) {
    (void)env;
    (void)cls;
    return FC_X86 ? JNI_TRUE : JNI_FALSE;
}

/* Resolution of a clock in ns, or a negative errno. */
JNIEXPORT jlong JNICALL Java_io_fastclock_clock_NativeClocks_clockGetres(JNIEnv *env, jclass cls, jint clockId) {
    (void)env;
    (void)cls;
    struct timespec ts;
    if (clock_getres((clockid_t)clockId, &ts) != 0) {
        return -(jlong)errno;
    }
    return (jlong)ts_to_nanos(&ts);
}

/* Nanoseconds of the given clock, or a negative errno. */
JNIEXPORT jlong JNICALL Java_io_fastclock_clock_NativeClocks_clockGettime(JNIEnv *env, jclass cls, jint clockId) {
    (void)env;
    (void)cls;
    return (jlong)read_clock((clockid_t)clockId);
}

/*
 * Times n calls of one clock in C and returns the total elapsed nanoseconds (CLOCK_MONOTONIC),
 * or a negative errno. The sum of the values read is folded into a volatile sink so the loop
 * cannot be removed.
 */
static volatile uint64_t fc_sink;

JNIEXPORT jlong JNICALL Java_io_fastclock_clock_NativeClocks_timeCalls(JNIEnv *env, jclass cls, jint clockId, jlong n) {
    (void)env;
    (void)cls;
    if (n <= 0) {
        return -EINVAL;
    }
    if ((clockId == FC_PSEUDO_RDTSCP || clockId == FC_PSEUDO_LFENCE_RDTSC || clockId == FC_PSEUDO_MFENCE_RDTSC
         || clockId == FC_PSEUDO_RDTSC) && !FC_X86) {
        return -ENOTSUP;
    }
    if (clockId == FC_PSEUDO_RDTSCP && !cpu_has_rdtscp()) {
        return -ENOTSUP; /* executing it would be SIGILL */
    }
    uint64_t sum = 0;
    struct timespec ts;
    struct timeval tv;
    int64_t start = read_clock(CLOCK_MONOTONIC);
    if (start < 0) {
        return start;
    }
    for (jlong i = 0; i < n; i++) {
        switch (clockId) {
            case FC_PSEUDO_RDTSCP:
                sum += tsc_rdtscp();
                break;
            case FC_PSEUDO_LFENCE_RDTSC:
                sum += tsc_lfence_rdtsc();
                break;
            case FC_PSEUDO_MFENCE_RDTSC:
                sum += tsc_mfence_rdtsc();
                break;
            case FC_PSEUDO_RDTSC:
                sum += tsc_unordered();
                break;
            case FC_PSEUDO_GETTIMEOFDAY:
                if (gettimeofday(&tv, NULL) != 0) return -(jlong)errno;
                sum += (uint64_t)tv.tv_usec;
                break;
            default:
                if (clock_gettime((clockid_t)clockId, &ts) != 0) return -(jlong)errno;
                sum += (uint64_t)ts.tv_nsec;
                break;
        }
    }
    int64_t end = read_clock(CLOCK_MONOTONIC);
    if (end < 0) {
        return end;
    }
    fc_sink += sum;
    return (jlong)(end - start);
}

/*
 * Reads (TSC, CLOCK_MONOTONIC, CLOCK_REALTIME) `tries` times and keeps the sample whose TSC read
 * window around the CLOCK_MONOTONIC read was narrowest. out[0] = TSC at the middle of the window,
 * out[1] = CLOCK_MONOTONIC ns, out[2] = window in TSC ticks, out[3] = CLOCK_REALTIME ns at the
 * monotonic instant (the midpoint of reads just before and just after).
 * Returns 0, or a negative errno.
 */
JNIEXPORT jint JNICALL Java_io_fastclock_clock_NativeClocks_sampleTsc(JNIEnv *env, jclass cls, jint tries, jlongArray out) {
    (void)cls;
    if (!FC_X86) {
        return -ENOTSUP;
    }
    if (out == NULL || (*env)->GetArrayLength(env, out) < 4 || tries <= 0) {
        return -EINVAL;
    }
    jlong best[4] = {0, 0, INT64_MAX, 0};
    int has_rdtscp = cpu_has_rdtscp();
    for (jint i = 0; i < tries; i++) {
        struct timespec mono, real_before, real_after;
        if (clock_gettime(CLOCK_REALTIME, &real_before) != 0) {
            return -errno;
        }
        uint64_t t1 = tsc_fenced(has_rdtscp);
        int rc = clock_gettime(CLOCK_MONOTONIC, &mono);
        uint64_t t2 = tsc_fenced(has_rdtscp);
        if (rc != 0) {
            return -errno;
        }
        if (clock_gettime(CLOCK_REALTIME, &real_after) != 0) {
            return -errno;
        }
        jlong window = (jlong)(t2 - t1);
        if (t2 >= t1 && window < best[2]) {
            best[0] = (jlong)(t1 + (t2 - t1) / 2);
            best[1] = (jlong)ts_to_nanos(&mono);
            best[2] = window;
            /* The two realtime reads sit symmetrically around the monotonic one, so their midpoint
             * is CLOCK_REALTIME at the monotonic instant: no bias of one clock read's cost (tens
             * of ns on the vDSO, microseconds on a slow clocksource) in the realtime offset. */
            int64_t before = ts_to_nanos(&real_before);
            int64_t after = ts_to_nanos(&real_after);
            best[3] = (jlong)(before + (after - before) / 2);
        }
    }
    if (best[2] == INT64_MAX) {
        return -EAGAIN; /* the TSC went backwards inside every window */
    }
#if defined(FC_FAULT_CALIB)
    if (atomic_fetch_add(&fc_fault_samples, 1u) % 2u == 1u) {
        best[1] += FC_FAULT_SKEW_NANOS;
    }
#endif
    (*env)->SetLongArrayRegion(env, out, 0, 4, best);
    return 0;
}

/* ---- cross-CPU TSC check ------------------------------------------------------------------ */

struct tsc_record {
    uint64_t tsc;
    uint32_t worker;
};

/*
 * Shared by the caller and the workers, and freed by whichever of them lets go of it last: the
 * caller stops waiting at the deadline, and a worker pinned to a busy CPU may not even have started
 * by then, so the caller cannot join it (that wait is what made the check unbounded under load).
 */
struct tsc_check {
    pthread_mutex_t lock;
    pthread_cond_t finished_cond;
    int refs;     /* under lock: the caller and each worker not yet gone */
    int finished; /* under lock: workers that have stopped reading */
    int enough;   /* under lock: workers that have taken part in min_handovers handovers */
    int stop;     /* under lock: set by the caller at the deadline; no record is added after it */
    long per_thread;
    long min_handovers;
    int has_rdtscp;
    struct tsc_record *records; /* nthreads * per_thread, appended only under lock */
    size_t used;
    struct tsc_worker *workers;
#if defined(FC_FAULT_STALLCPU)
    int stall; /* set before the workers start: this check's first worker stalls */
#endif
};

struct tsc_worker {
    struct tsc_check *check;
    uint32_t index;
    int cpu;
    long handovers; /* under lock: reads right after another CPU's, or right before one */
    int error; /* 0, or an errno; read by the caller under lock once the worker has finished */
};

static void tsc_check_free(struct tsc_check *check) {
    pthread_cond_destroy(&check->finished_cond);
    pthread_mutex_destroy(&check->lock);
    free(check->records);
    free(check->workers);
    free(check);
}

/* Called with check->lock held; unlocks it, and frees the check if this was the last reference. */
static void tsc_check_release_locked(struct tsc_check *check) {
    int last = --check->refs == 0;
    pthread_mutex_unlock(&check->lock);
    if (last) tsc_check_free(check);
}

static void *tsc_worker_run(void *arg) {
    struct tsc_worker *w = arg;
    struct tsc_check *check = w->check;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(w->cpu, &set);
    int error = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
#if defined(FC_FAULT_STALLCPU)
    if (error == 0 && w->index == 0 && check->stall) {
        /* As if this worker's CPU were too busy to run it for a long time. */
        struct timespec stall = {FC_FAULT_STALL_SECONDS, 0};
        while (nanosleep(&stall, &stall) != 0 && errno == EINTR) {
        }
    }
#endif
    for (long i = 0; error == 0 && i < check->per_thread; i++) {
        error = pthread_mutex_lock(&check->lock);
        if (error != 0) break;
        if (check->stop) {
            pthread_mutex_unlock(&check->lock);
            break;
        }
        /* Under the lock the records' order is the reads' order in real time, so the TSC values
           in that order must never decrease, whichever CPU each one came from. Only a read right
           after another CPU's compares two CPUs: those handovers are what the check counts. */
        struct tsc_record *r = &check->records[check->used++];
        r->tsc = tsc_ordered_any(check->has_rdtscp);
        r->worker = w->index;
        if (check->used >= 2 && check->records[check->used - 2].worker != w->index) {
            struct tsc_worker *before = &check->workers[check->records[check->used - 2].worker];
            int newly_enough = (++before->handovers == check->min_handovers) + (++w->handovers == check->min_handovers);
            if (newly_enough > 0) {
                check->enough += newly_enough;
                pthread_cond_signal(&check->finished_cond);
            }
        }
        error = pthread_mutex_unlock(&check->lock);
    }
    if (pthread_mutex_lock(&check->lock) != 0) {
        return NULL; /* cannot happen with a default mutex; leaking beats freeing under a reader */
    }
    w->error = error;
    check->finished++;
    pthread_cond_signal(&check->finished_cond);
    tsc_check_release_locked(check);
    return NULL;
}

static struct timespec timespec_plus(struct timespec at, long long nanos) {
    long long sum = (long long)at.tv_sec * NANOS_PER_SECOND + at.tv_nsec + nanos;
    struct timespec result = {(time_t)(sum / NANOS_PER_SECOND), (long)(sum % NANOS_PER_SECOND)};
    return result;
}

/*
 * A reader left running when the check returns runs this library's code later: keep the library
 * mapped even if the JVM unloads it with its class loader. Returns 0 or -1.
 */
static int pin_this_library(void) {
    Dl_info info;
    if (dladdr((void *)&pin_this_library, &info) == 0 || info.dli_fname == NULL) return -1;
    /* RTLD_NOLOAD: only a reference to the copy already loaded, which RTLD_NODELETE then keeps. */
    return dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE) == NULL ? -1 : 0;
}

/*
 * One thread pinned to each CPU this process may run on, all reading the TSC in turn under a
 * shared lock (as fio's cpu clock test does). The caller stops the readers once softNanos have
 * passed and every CPU has taken part in minHandoversPerCpu handovers (a read right after another
 * CPU's), or at hardNanos whatever they have done, and returns without waiting for readers that have
 * not finished (a reader pinned to a busy CPU waits for its turn there). out[0] = CPUs checked,
 * out[1] = reads, out[2] = backward steps seen, out[3] = largest backward step in ticks, out[4] = 1
 * when the check was stopped before every reader finished, out[5] = fewest handovers any one CPU
 * took part in. Returns 0 when the check ran (look at out[2], out[4], out[5]), or a negative errno.
 * (Named apart from the unbounded check it replaced, so that a jar and a library of different
 * versions fail to link instead of calling each other with the wrong arguments.)
 */
JNIEXPORT jint JNICALL Java_io_fastclock_clock_NativeClocks_crossCpuTscCheckBounded(JNIEnv *env, jclass cls,
                                                                                  jint readsPerCpu,
                                                                                  jint minHandoversPerCpu,
                                                                                  jlong softNanos, jlong hardNanos,
                                                                                  jlongArray out) {
    (void)cls;
    if (!FC_X86) {
        return -ENOTSUP;
    }
    if (out == NULL || (*env)->GetArrayLength(env, out) < 6 || readsPerCpu <= 0 || minHandoversPerCpu <= 0
        || softNanos <= 0 || hardNanos < softNanos || hardNanos > 60 * NANOS_PER_SECOND) {
        return -EINVAL;
    }
    cpu_set_t allowed;
    if (sched_getaffinity(0, sizeof(allowed), &allowed) != 0) {
        return -errno;
    }
    int cpus[CPU_SETSIZE];
    int ncpu = 0;
    for (int c = 0; c < CPU_SETSIZE; c++) {
        if (CPU_ISSET(c, &allowed)) cpus[ncpu++] = c;
    }
    if (ncpu == 0) {
        return -ESRCH;
    }
    struct timespec now;
    if (clock_gettime(CLOCK_MONOTONIC, &now) != 0) return -errno;
    struct timespec soft_deadline = timespec_plus(now, softNanos);
    struct timespec hard_deadline = timespec_plus(now, hardNanos);
    int rc;

    struct tsc_check *check = calloc(1, sizeof(*check));
    if (check == NULL) return -ENOMEM;
    check->per_thread = readsPerCpu;
    check->min_handovers = minHandoversPerCpu;
#if defined(FC_FAULT_STALLCPU)
    {
        /* Checks run one at a time per process (the probe's thread): a plain counter will do. */
        static long checks_started;
        const char *runs = getenv("FC_FAULT_STALL_RUNS");
        check->stall = runs == NULL || checks_started < strtol(runs, NULL, 10);
        checks_started++;
    }
#endif
    check->has_rdtscp = cpu_has_rdtscp();
    check->records = calloc((size_t)ncpu * (size_t)readsPerCpu, sizeof(struct tsc_record));
    check->workers = calloc((size_t)ncpu, sizeof(struct tsc_worker));
    pthread_condattr_t cond_attr;
    int cond_attr_ok = pthread_condattr_init(&cond_attr) == 0;
    if (check->records == NULL || check->workers == NULL || !cond_attr_ok
        || pthread_condattr_setclock(&cond_attr, CLOCK_MONOTONIC) != 0) {
        if (cond_attr_ok) pthread_condattr_destroy(&cond_attr);
        free(check->records);
        free(check->workers);
        free(check);
        return -ENOMEM;
    }
    if (pthread_mutex_init(&check->lock, NULL) != 0) {
        pthread_condattr_destroy(&cond_attr);
        free(check->records);
        free(check->workers);
        free(check);
        return -EAGAIN;
    }
    if (pthread_cond_init(&check->finished_cond, &cond_attr) != 0) {
        pthread_condattr_destroy(&cond_attr);
        pthread_mutex_destroy(&check->lock);
        free(check->records);
        free(check->workers);
        free(check);
        return -EAGAIN;
    }
    pthread_condattr_destroy(&cond_attr);
    check->refs = 1;

    pthread_attr_t thread_attr;
    if (pthread_attr_init(&thread_attr) != 0) {
        tsc_check_free(check);
        return -EAGAIN;
    }
    pthread_attr_setdetachstate(&thread_attr, PTHREAD_CREATE_DETACHED);
    int result = 0;
    int started = 0;
    for (int i = 0; i < ncpu; i++) {
        struct tsc_worker *w = &check->workers[i];
        w->check = check;
        w->index = (uint32_t)i;
        w->cpu = cpus[i];
        /* The worker's reference is taken before it can run, so it never sees refs reach 0 early. */
        pthread_mutex_lock(&check->lock);
        check->refs++;
        pthread_mutex_unlock(&check->lock);
        pthread_t thread;
        rc = pthread_create(&thread, &thread_attr, tsc_worker_run, w);
        if (rc != 0) {
            pthread_mutex_lock(&check->lock);
            check->refs--;
            check->stop = 1; /* no reader waits for this one */
            pthread_mutex_unlock(&check->lock);
            result = -rc;
            break;
        }
        started++;
    }
    pthread_attr_destroy(&thread_attr);

    pthread_mutex_lock(&check->lock);
    int past_soft = 0;
    while (check->finished < started && !(past_soft && check->enough >= started)) {
        rc = pthread_cond_timedwait(&check->finished_cond, &check->lock, past_soft ? &hard_deadline : &soft_deadline);
        if (rc == ETIMEDOUT) {
            if (past_soft) break;
            past_soft = 1;
        } else if (rc != 0 && rc != EINTR) {
            if (result == 0) result = -rc;
            break;
        }
    }
    /* From here no worker adds a record, so records[0, used) is final even if some still run. */
    check->stop = 1;
    int cut_short = check->finished < started;
    for (int i = 0; i < started; i++) {
        /* A worker that has not finished has no error yet; one that has wrote it under the lock. */
        if (check->workers[i].error != 0 && result == 0) result = -check->workers[i].error;
    }
    size_t used = check->used;
    long fewest = -1;
    for (int i = 0; i < ncpu; i++) {
        if (fewest < 0 || check->workers[i].handovers < fewest) fewest = check->workers[i].handovers;
    }
    pthread_mutex_unlock(&check->lock);
    if (cut_short && pin_this_library() != 0 && result == 0) {
        result = -ELIBACC;
    }

#if defined(FC_FAULT_CROSSCPU)
    if (result == 0 && used >= 2) {
        /* The last read comes out behind the one before it, as if its CPU's TSC lagged. */
        uint64_t previous = check->records[used - 2].tsc;
        check->records[used - 1].tsc = previous > FC_FAULT_STEP_TICKS ? previous - FC_FAULT_STEP_TICKS : 0;
    }
#endif
    if (result == 0) {
        /* Records were appended under the lock, so array order is the reads' order. */
        jlong backwards = 0;
        jlong worst = 0;
        for (size_t i = 1; i < used; i++) {
            if (check->records[i].tsc < check->records[i - 1].tsc) {
                jlong step = (jlong)(check->records[i - 1].tsc - check->records[i].tsc);
                backwards++;
                if (step > worst) worst = step;
            }
        }
        jlong values[6] = {ncpu, (jlong)used, backwards, worst, cut_short, fewest};
        (*env)->SetLongArrayRegion(env, out, 0, 6, values);
    }
    pthread_mutex_lock(&check->lock);
    tsc_check_release_locked(check);
    return result;
}
