package io.fastclock.decide;

import io.fastclock.config.Backend;
import io.fastclock.config.Settings;
import io.fastclock.probe.MachineFacts;
import io.fastclock.probe.Measurements;
import io.fastclock.probe.NativeStatus;
import io.fastclock.probe.TscHealth;
import java.util.ArrayList;
import java.util.List;

/**
 * Decides, from the settings and what was learned about the machine, which backend each clock
 * uses. A pure function: it reads nothing and measures nothing, so every rule is testable with
 * made-up machines. Each rule lives in a class of its own: {@link TscRules}, {@link MillisChoice},
 * {@link NanosChoice}, {@link StartLine}, {@link ActivationRules}, {@link CoarseLag}; what they say
 * is in {@link Reasons}.
 *
 * <p>Rules (activation.auto and activation.tsc-checks in docs/CONTRACT.md):
 * <ul>
 *   <li>{@code mode=off}: both clocks stay on the system clock.</li>
 *   <li>The TSC is usable only on x86_64 with {@code constant_tsc} and {@code nonstop_tsc}, {@code tsc}
 *       still listed in available_clocksource, the JNI library loaded, and the run-time checks
 *       (CPUID invariant TSC, calibration, cross-CPU) passed.</li>
 *   <li>A system clock is slow when the clocksource is known slow or its cost timed in C is over
 *       the threshold. In {@code mode=auto} a clock that is not slow stays on the system clock; a
 *       slow one gets the best allowed backend that is measurably faster, comparing what
 *       JIT-compiled Java pays for each (JNI transition included) with what it pays for the system
 *       clock, timed the same way (an unmeasured cost is never "faster").</li>
 *   <li>{@code mode=on} takes the best allowed backend even when the system clock is fast, but
 *       never an unsafe one, and never JNA when JNA was measured slower than the system clock.</li>
 *   <li>nanoTime: TSC if usable, else the system clock. A coarse nanoTime only when
 *       {@code nanos=coarse} is named, with a warning.</li>
 *   <li>currentTimeMillis: the coarse clock through JNI when it ticks every 1 ms or finer; else the
 *       TSC clock if usable; else the coarse clock through JNI with its lag stated; else the coarse
 *       clock through JNA; else the system clock.</li>
 *   <li>A backend named explicitly ({@code millis=}, {@code nanos=}) is honoured whenever it is
 *       safe, whether or not it is faster (the reason says if it was measured slower); when it
 *       cannot be honoured the clock stays on the system clock with a warning saying why.</li>
 *   <li>A coarse clock is used only when its resolution is known and at most 10 ms, and its lag
 *       behind CLOCK_REALTIME was measured at start: it states that lag plus a tick, at least two
 *       ticks, and is not used when that is over the cap ({@link CoarseLag}). A coarse clock named
 *       by the user whose lag was not measured states two ticks.</li>
 * </ul>
 */
public final class DecisionMaker {

    /** The coarsest coarse clock accepted (CONFIG_HZ=100). */
    public static final long MAX_COARSE_RESOLUTION_NS = 10_000_000L;
    /** The stated lag of the TSC-derived currentTimeMillis. */
    public static final long TSC_MILLIS_LAG_NS = 1_000_000L;

    /**
     * The least lag L a currentTimeMillis backend states (the clock contract's [reference - L, reference + 1 ms]):
     * coarse and jna-coarse two ticks of CLOCK_REALTIME_COARSE (the decision states more where the
     * lag measured at start asks for it, see {@link CoarseLag}), tsc {@link #TSC_MILLIS_LAG_NS}, system 0;
     * -1 when it cannot be stated: a coarse clock whose resolution is unknown or coarser than
     * {@link #MAX_COARSE_RESOLUTION_NS} (such a clock is never used).
     *
     * @param coarseResolutionNs clock_getres(CLOCK_REALTIME_COARSE), or -1 if unknown
     */
    public static long statedMillisLagNs(Backend backend, long coarseResolutionNs) {
        switch (backend) {
            case SYSTEM:
                return 0;
            case TSC:
                return TSC_MILLIS_LAG_NS;
            case COARSE:
            case JNA_COARSE:
            default:
                return coarseResolutionNs > 0 && coarseResolutionNs <= MAX_COARSE_RESOLUTION_NS ? 2 * coarseResolutionNs : -1;
        }
    }

    public DecisionMaker() {}

    public Decision decide(Settings settings, MachineFacts facts, Measurements measured, NativeStatus libraries, TscHealth health) {
        List<String> warnings = new ArrayList<>();
        if (ActivationRules.off(settings)) {
            Choice off = Choice.system(Reasons.OFF);
            return new Decision(off, off, warnings, Reasons.OFF_LINE);
        }
        DecisionInputs in = new DecisionInputs(settings, facts, measured, libraries, health);
        Choice millis = MillisChoice.choose(in, warnings);
        Choice nanos = NanosChoice.choose(in, warnings);
        return new Decision(millis, nanos, warnings, StartLine.of(in, millis, nanos));
    }
}
