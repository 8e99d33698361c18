package io.fastclock.bench;

import io.fastclock.boot.ClockRegistry;
import io.fastclock.boot.InstalledClocks;

import io.fastclock.probe.TscClockStarter;
import io.fastclock.measure.TscChecks;
import io.fastclock.nativelib.JnaLoader;
import io.fastclock.nativelib.NativeLibraryExtractor;
import io.fastclock.nativelib.NativeLibraryLoader;
import io.fastclock.clock.CoarseMillis;
import io.fastclock.clock.CoarseNanos;
import io.fastclock.runtime.MillisClock;
import io.fastclock.runtime.NanosClock;
import io.fastclock.clock.RuntimeLog;
import io.fastclock.clock.SystemMillis;
import io.fastclock.clock.SystemNanos;
import io.fastclock.clock.TscClock;
import io.fastclock.clock.TscMillis;
import io.fastclock.clock.TscNanos;
import io.fastclock.clock.TscTrust;

/**
 * Installs one fastclock backend pair into {@link ClockRegistry} and {@link InstalledClocks}, what a
 * switched FastClock calls (the agent repoints FastClock's call of the JDK's clock at InstalledClocks
 * by retransformation, which needs an agent: the agent-level benchmarks measure that). InstalledClocks
 * seals the backends into static finals, so this works once per JVM: JMH forks a fresh JVM per
 * parameter value, and each fork calls this from a {@code @Setup(Level.Trial)}.
 * Fails loudly (no silent fallback): a benchmark of "tsc" that ran on the system clock would lie.
 */
public final class Backends {
    private Backends() {}

    /** The backend this JVM installed (ClockRegistry takes one install per JVM). */
    private static String installed;

    private static void installPair(MillisClock millis, NanosClock nanos) {
        if (!ClockRegistry.install(millis, nanos, null) || !InstalledClocks.hold(millis, nanos, null)) {
            throw new IllegalStateException("the backends were installed already in this JVM");
        }
    }

    public static synchronized void install(String backend) {
        if (installed != null) {
            String want = backend;
            if (!want.equals(InstalledClocks.millisBackend()) && !InstalledClocks.millisBackend().startsWith(want)) {
                throw new IllegalStateException("FastClock already sealed with " + InstalledClocks.millisBackend()
                        + "/" + InstalledClocks.nanosBackend() + ", cannot switch to " + backend + " in this JVM (use forks >= 1)");
            }
            return;
        }
        switch (backend) {
            case "system":
                installPair(new SystemMillis(), new SystemNanos());
                break;
            case "coarse":
                loadNative();
                installPair(new CoarseMillis(), new CoarseNanos());
                break;
            case "tsc": {
                loadNative();
                TscChecks checks = TscChecks.run();
                if (!checks.crossCpuOk()) {
                    throw new IllegalStateException("TSC cross-CPU check failed: " + checks.crossCpuProblem);
                }
                TscClock clock = TscClockStarter.start(checks, 1_000_000_000L, TscTrust.ALWAYS, RuntimeLog.STDERR);
                installPair(new TscMillis(clock), new TscNanos(clock));
                break;
            }
            case "jna-coarse": {
                // As the agent builds it where libfastclock cannot load: JNA from the agent jar's
                // nested copy, in a private loader. It serves millis only; nanoTime stays on the system clock.
                JnaLoader.Result jna = JnaLoader.load(NativeLibraryExtractor.defaultTempRoot(), MillisClock.class.getClassLoader());
                if (!jna.available()) {
                    throw new IllegalStateException("jna-coarse: " + jna.problem);
                }
                installPair(jna.clock, new SystemNanos());
                break;
            }
            default:
                throw new IllegalArgumentException("backend: " + backend + " (accepted: system, coarse, tsc, jna-coarse)");
        }
        installed = backend;
        // Seal now, outside the measured region, and verify what was installed.
        String m = InstalledClocks.millisBackend();
        String n = InstalledClocks.nanosBackend();
        long skew = Math.abs(InstalledClocks.currentTimeMillis() - System.currentTimeMillis());
        if (skew > 50) {
            throw new IllegalStateException(backend + " millis is " + skew + " ms away from System.currentTimeMillis()");
        }
        System.err.println("fastclock-bench: installed millis=" + m + " nanos=" + n);
    }

    static void loadNative() {
        NativeLibraryLoader.Result r = NativeLibraryLoader.load(null, NativeLibraryExtractor.defaultTempRoot());
        if (!r.loaded()) {
            throw new IllegalStateException(r.problem);
        }
    }
}
