/*
 * A stand-in for Chronicle's libCEInternals, which OpenHFT affinity's Ticker loads with
 * System.loadLibrary("CEInternals") but which is not published on Maven Central. Without it the
 * Ticker silently falls back to System.nanoTime() and a benchmark of it measures the system clock.
 *
 * Built from the JNI signatures in affinity 3.23.2's class files (javap) and doing what OpenHFT's
 * published C does for the clock: a plain, unordered RDTSC behind a JNI call. The affinity calls
 * are implemented with the obvious Linux calls so that NativeAffinity's class initialisation works.
 * Benchmark use only: it is never part of fastclock.jar.
 */
#define _GNU_SOURCE
#include <jni.h>
#include <sched.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <x86intrin.h>

static jlong plain_rdtsc(void) {
    return (jlong)__rdtsc();
}

JNIEXPORT jlong JNICALL Java_net_openhft_ticker_impl_JNIClock_rdtsc0(JNIEnv *env, jclass cls) {
    (void)env;
    (void)cls;
    return plain_rdtsc();
}

JNIEXPORT jlong JNICALL Java_software_chronicle_enterprise_internals_impl_NativeAffinity_rdtsc0(JNIEnv *env, jclass cls) {
    (void)env;
    (void)cls;
    return plain_rdtsc();
}

JNIEXPORT jint JNICALL Java_software_chronicle_enterprise_internals_impl_NativeAffinity_getCpu0(JNIEnv *env, jclass cls) {
    (void)env;
    (void)cls;
    return (jint)sched_getcpu();
}

JNIEXPORT jint JNICALL Java_software_chronicle_enterprise_internals_impl_NativeAffinity_getProcessId0(JNIEnv *env, jclass cls) {
    (void)env;
    (void)cls;
    return (jint)getpid();
}

JNIEXPORT jint JNICALL Java_software_chronicle_enterprise_internals_impl_NativeAffinity_getThreadId0(JNIEnv *env, jclass cls) {
    (void)env;
    (void)cls;
    return (jint)syscall(SYS_gettid);
}

JNIEXPORT jbyteArray JNICALL Java_software_chronicle_enterprise_internals_impl_NativeAffinity_getAffinity0(JNIEnv *env, jclass cls) {
    (void)cls;
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0) {
        return NULL;
    }
    jbyteArray out = (*env)->NewByteArray(env, (jsize)sizeof set);
    if (out != NULL) {
        (*env)->SetByteArrayRegion(env, out, 0, (jsize)sizeof set, (const jbyte *)&set);
    }
    return out;
}

JNIEXPORT void JNICALL Java_software_chronicle_enterprise_internals_impl_NativeAffinity_setAffinity0(JNIEnv *env, jclass cls, jbyteArray mask) {
    (void)cls;
    if (mask == NULL) {
        return;
    }
    cpu_set_t set;
    CPU_ZERO(&set);
    jsize len = (*env)->GetArrayLength(env, mask);
    if (len > (jsize)sizeof set) {
        len = (jsize)sizeof set;
    }
    (*env)->GetByteArrayRegion(env, mask, 0, len, (jbyte *)&set);
    if (sched_setaffinity(0, sizeof set, &set) != 0) {
        return; /* the Java side keeps the old affinity, as with Chronicle's library */
    }
}
