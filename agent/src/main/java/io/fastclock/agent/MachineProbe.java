package io.fastclock.agent;

import io.fastclock.config.Settings;
import io.fastclock.measure.NativeCostMeter;
import io.fastclock.measure.TscChecks;
import io.fastclock.nativelib.NativeLibraryExtractor;
import io.fastclock.nativelib.NativeLibraryLoader;
import io.fastclock.probe.Decision;
import io.fastclock.probe.DecisionMaker;
import io.fastclock.probe.MachineFacts;
import io.fastclock.probe.MachineReader;
import io.fastclock.probe.Measurements;
import io.fastclock.probe.NativeStatus;
import io.fastclock.probe.TscHealth;
import io.fastclock.runtime.NativeClocks;

/**
 * Everything the agent and the doctor learn about this machine before deciding: the files
 * (clocksources, CPU flags), the native library, what each clock costs (timed in C), and, when the
 * TSC could be chosen, the TSC checks. Then the decision.
 */
public final class MachineProbe {
    public final Settings settings;
    public final MachineReader reader;
    public final MachineFacts facts;
    public final NativeLibraryLoader.Result nativeResult;
    public final NativeStatus nativeStatus;
    public final Measurements measurements;
    /** Null when the TSC checks were not worth running. */
    public final TscChecks tscChecks;
    public final TscHealth tscHealth;
    public final Decision decision;
    public final long elapsedNanos;

    private MachineProbe(Settings settings, MachineReader reader, MachineFacts facts, NativeLibraryLoader.Result nativeResult,
                         NativeStatus nativeStatus, Measurements measurements, TscChecks tscChecks, TscHealth tscHealth, Decision decision,
                         long elapsedNanos) {
        this.settings = settings;
        this.reader = reader;
        this.facts = facts;
        this.nativeResult = nativeResult;
        this.nativeStatus = nativeStatus;
        this.measurements = measurements;
        this.tscChecks = tscChecks;
        this.tscHealth = tscHealth;
        this.decision = decision;
        this.elapsedNanos = elapsedNanos;
    }

    /**
     * @param bootNativeLibraries see {@link NativeLibraryLoader#load}
     * @param alwaysCheckTsc run the TSC checks even where the decision cannot use them (the doctor)
     */
    public static MachineProbe run(Settings settings, Object bootNativeLibraries, boolean alwaysCheckTsc) {
        long start = System.nanoTime();
        MachineReader reader = new MachineReader(settings.sysfsRoot(), settings.procfsRoot());
        MachineFacts facts = reader.read();
        NativeLibraryLoader.Result loaded = NativeLibraryLoader.load(
                settings.library() == null ? null : settings.library().toString(),
                NativeLibraryExtractor.defaultTempRoot(), bootNativeLibraries);
        NativeStatus nativeStatus = new NativeStatus(loaded.loaded(), loaded.problem, false,
                "the JNA backend is not bundled in this build");
        Measurements measurements = loaded.loaded() ? measure(NativeCostMeter.forStartup(), facts) : Measurements.none();

        TscChecks checks = null;
        TscHealth health = TscHealth.notChecked();
        boolean worthIt = DecisionMaker.tscChecksWorthRunning(settings, facts, nativeStatus)
                && (settings.mode() == Settings.Mode.ON || slow(settings, facts, measurements)
                    || settings.millis() == Settings.Millis.TSC || settings.nanos() == Settings.Nanos.TSC);
        if (loaded.loaded() && NativeClocks.isX86() && (worthIt || alwaysCheckTsc)) {
            checks = TscChecks.run();
            health = toHealth(checks);
        }
        Decision decision = new DecisionMaker().decide(settings, facts, measurements, nativeStatus, health);
        return new MachineProbe(settings, reader, facts, loaded, nativeStatus, measurements, checks, health, decision,
                System.nanoTime() - start);
    }

    /** Whether either system clock is slow enough that auto would want a replacement. */
    private static boolean slow(Settings settings, MachineFacts facts, Measurements m) {
        return facts.clocksourceKnownSlow() || m.realtimeNs() > settings.thresholdNs() || m.monotonicNs() > settings.thresholdNs()
                || Double.isNaN(m.realtimeNs());
    }

    static Measurements measure(NativeCostMeter meter, MachineFacts facts) {
        Measurements.Builder b = Measurements.builder()
                .realtimeNs(meter.nanosPerCall(NativeClocks.CLOCK_REALTIME))
                .monotonicNs(meter.nanosPerCall(NativeClocks.CLOCK_MONOTONIC))
                .realtimeCoarseNs(meter.nanosPerCall(NativeClocks.CLOCK_REALTIME_COARSE) + NativeCostMeter.JNI_CALL_NANOS)
                .monotonicCoarseNs(meter.nanosPerCall(NativeClocks.CLOCK_MONOTONIC_COARSE) + NativeCostMeter.JNI_CALL_NANOS)
                .coarseResolutionNs(NativeClocks.clockGetres(NativeClocks.CLOCK_REALTIME_COARSE));
        if (NativeClocks.isX86()) {
            boolean rdtscp = (NativeClocks.tscFlags() & NativeClocks.TSC_RDTSCP) != 0;
            double tsc = meter.nanosPerCall(rdtscp ? NativeClocks.PSEUDO_RDTSCP : NativeClocks.PSEUDO_LFENCE_RDTSC);
            b.tscNs(tsc + NativeCostMeter.JNI_CALL_NANOS);
        }
        return b.build();
    }

    static TscHealth toHealth(TscChecks checks) {
        boolean calibrated = checks.calibration != null && checks.calibration.converged;
        String calibrationProblem = checks.calibration == null ? "not calibrated: an earlier check failed"
                : checks.calibration.problem;
        return new TscHealth(true, checks.cpuidInvariant(), calibrated, calibrated ? null : calibrationProblem,
                checks.crossCpuOk(), checks.crossCpuProblem);
    }
}
