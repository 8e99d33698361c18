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
    private TscRules() {}

    /**
     * Why the TSC cannot be used, judged from what does not need run-time checks (architecture,
     * CPU flags, available_clocksource, the JNI library), or null if nothing rules it out yet.
     * The caller can use this to skip the TSC checks where they cannot help.
     */
    public static String staticBlocker(MachineFacts facts, NativeStatus nat) {
        if (!facts.isX86_64()) {
            return "the TSC is used only on x86_64 and this machine is "
                    + (facts.arch() == null ? "of unknown architecture" : facts.arch());
        }
        if (facts.cpuFlags().isEmpty()) {
            return "the CPU flags could not be read from cpuinfo, so constant_tsc and nonstop_tsc cannot be confirmed";
        }
        if (!facts.hasFlag("constant_tsc")) {
            return "the CPU lacks constant_tsc (its TSC rate may follow the CPU frequency)";
        }
        if (!facts.hasFlag("nonstop_tsc")) {
            return "the CPU lacks nonstop_tsc (its TSC may stop in deep idle states)";
        }
        if (!facts.availableClocksourcesKnown()) {
            return "available_clocksource could not be read, so it is unknown whether the kernel still trusts the TSC";
        }
        if (!facts.tscListedAvailable()) {
            return "the kernel no longer lists tsc in available_clocksource (its watchdog found it unstable)";
        }
        if (!nat.jniLoaded()) {
            return "the native library did not load" + ChoiceRules.paren(nat.jniProblem());
        }
        return null;
    }

    /** The CPU flags the TSC clock needs, as /proc/cpuinfo names them, with what each promises. */
    private static final String[][] TSC_FLAGS = {
        {"tsc", "which says the CPU has a time-stamp counter"},
        {"constant_tsc", "which says the TSC rate does not follow the CPU frequency"},
        {"nonstop_tsc", "which says the TSC does not stop in deep idle states"},
    };

    /**
     * Every reason, not only the first, why the TSC cannot be used that needs no run-time check: for
     * the doctor, so that a person sees at once all the kernel and the CPU say. Where sysfs tells, the
     * kernel's own verdict comes first (tsc left out of available_clocksource), then every missing
     * CPU flag, then the JNI library. Empty when nothing rules the TSC out yet.
     */
    public static List<String> staticBlockers(MachineFacts facts, NativeStatus nat) {
        List<String> out = new ArrayList<>();
        if (!facts.isX86_64()) {
            out.add(staticBlocker(facts, nat));
            return out;
        }
        if (!facts.availableClocksourcesKnown()) {
            out.add("available_clocksource could not be read, so it is unknown whether the kernel still trusts the TSC");
        } else if (!facts.tscListedAvailable()) {
            out.add("the kernel left tsc out of available_clocksource (" + String.join(" ", facts.availableClocksources())
                    + "): its clocksource watchdog found the TSC unstable, or the kernel never registered it"
                    + (facts.currentClocksource() == null ? "" : "; the kernel uses " + facts.currentClocksource()));
        }
        if (facts.cpuFlags().isEmpty()) {
            out.add("the CPU flags could not be read from cpuinfo, so constant_tsc and nonstop_tsc cannot be confirmed");
        } else {
            List<String> missing = new ArrayList<>();
            for (String[] flag : TSC_FLAGS) {
                if (!facts.hasFlag(flag[0])) {
                    missing.add(flag[0] + " (" + flag[1] + ")");
                }
            }
            if (!missing.isEmpty()) {
                out.add("the CPU lacks " + String.join(", ", missing));
            }
        }
        if (!nat.jniLoaded()) {
            out.add("the native library did not load" + ChoiceRules.paren(nat.jniProblem()));
        }
        return out;
    }

    /** Why the TSC cannot be used, or null if it can. */
    public static String blocker(MachineFacts facts, NativeStatus nat, TscHealth health) {
        String blocker = staticBlocker(facts, nat);
        if (blocker != null) {
            return blocker;
        }
        if (!health.checked()) {
            return "the TSC checks (CPUID, calibration, cross-CPU) were not run";
        }
        if (!health.cpuidInvariant()) {
            return "CPUID does not report an invariant TSC";
        }
        // In the order the checks run: calibration is skipped once the cross-CPU check failed.
        if (!health.crossCpuOk()) {
            return "the cross-CPU check failed: " + health.crossCpuProblem();
        }
        if (!health.calibrated()) {
            return "TSC calibration did not converge" + ChoiceRules.paren(health.calibrationProblem());
        }
        return null;
    }

    /** Whether running the TSC checks can change the decision. */
    public static boolean checksWorthRunning(Settings settings, MachineFacts facts, NativeStatus nat) {
        if (ActivationRules.off(settings) || staticBlocker(facts, nat) != null) {
            return false;
        }
        boolean millis = settings.millis() == Settings.Millis.AUTO || settings.millis() == Settings.Millis.TSC;
        boolean nanos = settings.nanos() == Settings.Nanos.AUTO || settings.nanos() == Settings.Nanos.TSC;
        return millis || nanos;
    }
}
