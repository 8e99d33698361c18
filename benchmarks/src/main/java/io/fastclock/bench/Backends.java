package io.fastclock.bench;

import io.fastclock.probe.TscClockStarter;
import io.fastclock.measure.TscChecks;
import io.fastclock.nativelib.JnaLoader;
import io.fastclock.nativelib.NativeLibraryExtractor;
import io.fastclock.nativelib.NativeLibraryLoader;
import io.fastclock.runtime.ClockRegistry;
import io.fastclock.clock.CoarseMillis;
import io.fastclock.clock.CoarseNanos;
import io.fastclock.runtime.FastClock;
import io.fastclock.runtime.MillisClock;
import io.fastclock.clock.RuntimeLog;
import io.fastclock.clock.SystemMillis;
import io.fastclock.clock.SystemNanos;
import io.fastclock.clock.TscClock;
import io.fastclock.clock.TscMillis;
import io.fastclock.clock.TscNanos;
import io.fastclock.clock.TscTrust;

/**
 * Installs one fastclock backend pair into {@link ClockRegistry} before {@link FastClock} is first
 * touched. FastClock seals its backends into static finals, so this works once per JVM: JMH forks a
 * fresh JVM per parameter value, and each fork calls this from a {@code @Setup(Level.Trial)}.
 * Fails loudly (no silent fallback): a benchmark of "tsc" that ran on the system clock would lie.
 */
public final class Backends {
    private Backends() {}

    /** The backend this JVM installed (ClockRegistry takes one install per JVM). */
    private static String installed;

    public static synchronized void install(String backend) {
        if (installed != null) {
            String want = backend;
            if (!want.equals(FastClock.millisBackend()) && !FastClock.millisBackend().startsWith(want)) {
                throw new IllegalStateException("FastClock already sealed with " + FastClock.millisBackend()
                        + "/" + FastClock.nanosBackend() + ", cannot switch to " + backend + " in this JVM (use forks >= 1)");
            }
            return;
        }
        switch (backend) {
            case "system":
                ClockRegistry.install(new SystemMillis(), new SystemNanos());
                break;
            case "coarse":
                loadNative();
                ClockRegistry.install(new CoarseMillis(), new CoarseNanos());
                break;
            case "tsc": {
                loadNative();
                TscChecks checks = TscChecks.run();
                if (!checks.crossCpuOk()) {
                    throw new IllegalStateException("TSC cross-CPU check failed: " + checks.crossCpuProblem);
                }
                TscClock clock = TscClockStarter.start(checks, 1_000_000_000L, TscTrust.ALWAYS, RuntimeLog.STDERR);
                ClockRegistry.install(new TscMillis(clock), new TscNanos(clock));
                break;
            }
            case "jna-coarse": {
                // As the agent builds it where libfastclock cannot load: JNA from the agent jar's
                // nested copy, in a private loader. It serves millis only; nanoTime stays on the system clock.
                JnaLoader.Result jna = JnaLoader.load(NativeLibraryExtractor.defaultTempRoot(), MillisClock.class.getClassLoader());
                if (!jna.available()) {
                    throw new IllegalStateException("jna-coarse: " + jna.problem);
                }
                ClockRegistry.install(jna.clock, new SystemNanos());
                break;
            }
            default:
                throw new IllegalArgumentException("backend: " + backend + " (accepted: system, coarse, tsc, jna-coarse)");
        }
        installed = backend;
        // Seal now, outside the measured region, and verify what was installed.
        String m = FastClock.millisBackend();
        String n = FastClock.nanosBackend();
        long skew = Math.abs(FastClock.currentTimeMillis() - System.currentTimeMillis());
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
