package io.fastclock.decide;

import io.fastclock.config.Settings;
import io.fastclock.probe.MachineFacts;
import io.fastclock.probe.NativeStatus;
import io.fastclock.probe.TscHealth;
import java.util.ArrayList;
import java.util.List;

/**
 * Whether the TSC can be used (activation.tsc-checks in docs/CONTRACT.md): x86_64 with
 * {@code constant_tsc} and {@code nonstop_tsc}, {@code tsc} still listed in available_clocksource,
 * the JNI library loaded, and the run-time checks (CPUID invariant TSC, calibration, cross-CPU) passed.
 */
public final class TscRules {
    /** The CPU flags the TSC clock needs, as /proc/cpuinfo names them. */
    private static final String[] NEEDED_FLAGS = {"tsc", "constant_tsc", "nonstop_tsc"};

    private TscRules() {}

    /**
     * Why the TSC cannot be used, judged from what does not need run-time checks (architecture,
     * CPU flags, available_clocksource, the JNI library), or null if nothing rules it out yet.
     * The caller can use this to skip the TSC checks where they cannot help.
     */
    public static String staticBlocker(MachineFacts facts, NativeStatus libraries) {
        if (!facts.isX86_64()) {
            return Reasons.notX86(facts.arch());
        }
        if (facts.cpuFlags().isEmpty()) {
            return Reasons.CPU_FLAGS_UNREAD;
        }
        if (!facts.hasFlag("constant_tsc")) {
            return Reasons.NO_CONSTANT_TSC;
        }
        if (!facts.hasFlag("nonstop_tsc")) {
            return Reasons.NO_NONSTOP_TSC;
        }
        if (!facts.availableClocksourcesKnown()) {
            return Reasons.AVAILABLE_CLOCKSOURCES_UNREAD;
        }
        if (!facts.tscListedAvailable()) {
            return Reasons.TSC_NO_LONGER_LISTED;
        }
        if (!libraries.jniLoaded()) {
            return Reasons.nativeNotLoaded(libraries.jniProblem());
        }
        return null;
    }

    /**
     * Every reason, not only the first, why the TSC cannot be used that needs no run-time check: for
     * the doctor, so that a person sees at once all the kernel and the CPU say. Where sysfs tells, the
     * kernel's own verdict comes first (tsc left out of available_clocksource), then every missing
     * CPU flag, then the JNI library. Empty when nothing rules the TSC out yet.
     */
    public static List<String> staticBlockers(MachineFacts facts, NativeStatus libraries) {
        List<String> out = new ArrayList<>();
        if (!facts.isX86_64()) {
            out.add(staticBlocker(facts, libraries));
            return out;
        }
        if (!facts.availableClocksourcesKnown()) {
            out.add(Reasons.AVAILABLE_CLOCKSOURCES_UNREAD);
        } else if (!facts.tscListedAvailable()) {
            out.add(Reasons.tscLeftOut(facts.availableClocksources(), facts.currentClocksource()));
        }
        if (facts.cpuFlags().isEmpty()) {
            out.add(Reasons.CPU_FLAGS_UNREAD);
        } else {
            List<String> missing = new ArrayList<>();
            for (String flag : NEEDED_FLAGS) {
                if (!facts.hasFlag(flag)) {
                    missing.add(flag);
                }
            }
            if (!missing.isEmpty()) {
                out.add(Reasons.cpuLacks(missing));
            }
        }
        if (!libraries.jniLoaded()) {
            out.add(Reasons.nativeNotLoaded(libraries.jniProblem()));
        }
        return out;
    }

    /** Why the TSC cannot be used, or null if it can. */
    public static String blocker(MachineFacts facts, NativeStatus libraries, TscHealth health) {
        String blocker = staticBlocker(facts, libraries);
        if (blocker != null) {
            return blocker;
        }
        if (!health.checked()) {
            return Reasons.TSC_CHECKS_NOT_RUN;
        }
        if (!health.cpuidInvariant()) {
            return Reasons.NO_INVARIANT_TSC;
        }
        // In the order the checks run: calibration is skipped once the cross-CPU check failed.
        if (!health.crossCpuOk()) {
            return Reasons.crossCpuFailed(health.crossCpuProblem());
        }
        if (!health.calibrated()) {
            return Reasons.notCalibrated(health.calibrationProblem());
        }
        return null;
    }

    /** Whether running the TSC checks can change the decision. */
    public static boolean checksWorthRunning(Settings settings, MachineFacts facts, NativeStatus libraries) {
        if (ActivationRules.off(settings) || staticBlocker(facts, libraries) != null) {
            return false;
        }
        boolean millis = settings.millis() == Settings.Millis.AUTO || settings.millis() == Settings.Millis.TSC;
        boolean nanos = settings.nanos() == Settings.Nanos.AUTO || settings.nanos() == Settings.Nanos.TSC;
        return millis || nanos;
    }
}
