package io.fastclock.decide;

import io.fastclock.config.Backend;
import io.fastclock.config.OneLine;
import io.fastclock.config.Settings;
import io.fastclock.probe.MachineFacts;
import io.fastclock.probe.Measurements;
import io.fastclock.probe.NativeStatus;
import io.fastclock.probe.TscHealth;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Decides, from the settings and what was learned about the machine, which backend each clock
 * uses. A pure function: it reads nothing and measures nothing, so every rule is testable with
 * made-up machines.
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

    private static final String MILLIS = "System.currentTimeMillis";
    private static final String NANOS = "System.nanoTime";

    public DecisionMaker() {}

    /**
     * Why the TSC cannot be used, judged from what does not need run-time checks (architecture,
     * CPU flags, available_clocksource, the JNI library), or null if nothing rules it out yet.
     * The caller can use this to skip the TSC checks where they cannot help.
     */
    public static String tscStaticBlocker(MachineFacts facts, NativeStatus nat) {
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
            return "the native library did not load" + paren(nat.jniProblem());
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
    public static List<String> tscStaticBlockers(MachineFacts facts, NativeStatus nat) {
        List<String> out = new ArrayList<>();
        if (!facts.isX86_64()) {
            out.add(tscStaticBlocker(facts, nat));
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
            out.add("the native library did not load" + paren(nat.jniProblem()));
        }
        return out;
    }

    /** Why the TSC cannot be used, or null if it can. */
    public static String tscBlocker(MachineFacts facts, NativeStatus nat, TscHealth health) {
        String blocker = tscStaticBlocker(facts, nat);
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
            return "TSC calibration did not converge" + paren(health.calibrationProblem());
        }
        return null;
    }

    /** Whether running the TSC checks can change the decision. */
    public static boolean tscChecksWorthRunning(Settings settings, MachineFacts facts, NativeStatus nat) {
        if (ActivationRules.off(settings) || tscStaticBlocker(facts, nat) != null) {
            return false;
        }
        boolean millis = settings.millis() == Settings.Millis.AUTO || settings.millis() == Settings.Millis.TSC;
        boolean nanos = settings.nanos() == Settings.Nanos.AUTO || settings.nanos() == Settings.Nanos.TSC;
        return millis || nanos;
    }

    public Decision decide(Settings settings, MachineFacts facts, Measurements m, NativeStatus nat, TscHealth health) {
        List<String> warnings = new ArrayList<>();
        if (ActivationRules.off(settings)) {
            Choice off = new Choice(Backend.SYSTEM, "mode=off: the agent rewrites nothing.", 0);
            return new Decision(off, off, warnings, ActivationRules.OFF_LINE);
        }
        Ctx c = new Ctx(settings, facts, m, nat, health);
        Choice millis = decideMillis(c, warnings);
        Choice nanos = decideNanos(c, warnings);
        return new Decision(millis, nanos, warnings, summary(c, millis, nanos));
    }

    /** Everything one decision looks at. */
    private static final class Ctx {
        final Settings s;
        final MachineFacts f;
        final Measurements m;
        final NativeStatus n;
        final String tscBlocker;
        final boolean millisSlow;
        final boolean nanosSlow;

        Ctx(Settings s, MachineFacts f, Measurements m, NativeStatus n, TscHealth h) {
            this.s = s;
            this.f = f;
            this.m = m;
            this.n = n;
            this.tscBlocker = tscBlocker(f, n, h);
            // Slow: timed in C, against the threshold. Faster: compiled costs against compiled costs.
            this.millisSlow = ActivationRules.slow(f.clocksourceKnownSlow(), m.realtimeNs(), s.thresholdNs());
            this.nanosSlow = ActivationRules.slow(f.clocksourceKnownSlow(), m.monotonicNs(), s.thresholdNs());
        }

        String clocksource() {
            return "clocksource " + f.clocksourceForDisplay() + (f.clocksourceKnownSlow() ? ", known to be slow" : "");
        }

        /** "System.nanoTime costs 612 ns here (clocksource hpet, known to be slow)". */
        String cost(String clock, double ns) {
            if (Double.isNaN(ns)) {
                return clock + " was not measured (" + clocksource() + ")";
            }
            return clock + " costs " + ns(ns) + " here (" + clocksource() + ")";
        }
    }

    /** A backend that can be used (choice) or why not (whyNot). */
    private static final class Eval {
        final Choice choice;
        final String whyNot;

        Eval(Choice choice, String whyNot) {
            this.choice = choice;
            this.whyNot = whyNot;
        }

        static Eval no(String whyNot) {
            return new Eval(null, whyNot);
        }
    }

    // ---------------------------------------------------------------- currentTimeMillis

    private Choice decideMillis(Ctx c, List<String> warnings) {
        double sys = c.m.realtimeNs();
        switch (c.s.millis()) {
            case SYSTEM:
                return new Choice(Backend.SYSTEM,
                        "millis=system was requested, so currentTimeMillis stays on the system clock.", 0);
            case COARSE:
                return explicitMillis(c, Backend.COARSE.settingName(), coarseMillis(c, false, true, null), c.m.realtimeCoarseNs(), warnings);
            case TSC:
                return explicitMillis(c, Backend.TSC.settingName(), tscMillis(c, false, null), c.m.tscNs(), warnings);
            case JNA_COARSE:
                return explicitMillis(c, Backend.JNA_COARSE.settingName(), jnaMillis(c, false, true, null), c.m.jnaCoarseNs(), warnings);
            case AUTO:
            default:
                break;
        }
        boolean on = c.s.mode() == Settings.Mode.ON;
        if (!on && !c.millisSlow) {
            return new Choice(Backend.SYSTEM, notSlow(c, MILLIS, sys) + ", so currentTimeMillis stays on the system clock.", 0);
        }
        boolean requireFaster = !on;
        String prefix = (on ? "mode=on: " : "") + c.cost(MILLIS, sys);
        List<String> whyNot = new ArrayList<>();
        long res = c.m.coarseResolutionNs();

        boolean fineCoarse = c.n.jniLoaded() && res > 0 && res <= 1_000_000L;
        if (fineCoarse) {
            Eval e = coarseMillis(c, requireFaster, false, prefix);
            if (e.choice != null) {
                return e.choice;
            }
            addDistinct(whyNot, e.whyNot);
        }
        String coarseNote = !c.n.jniLoaded() ? null
                : res > 0 ? "the coarse clock ticks only every " + ms(res)
                : "the coarse clock's resolution is unknown";
        Eval tsc = tscMillis(c, requireFaster, prefix + (coarseNote == null ? "" : "; " + coarseNote));
        if (tsc.choice != null) {
            return tsc.choice;
        }
        addDistinct(whyNot, tsc.whyNot);
        if (!fineCoarse) {
            Eval e = coarseMillis(c, requireFaster, false, prefix + "; the TSC clock is not used because " + tsc.whyNot);
            if (e.choice != null) {
                return e.choice;
            }
            addDistinct(whyNot, e.whyNot);
        }
        String jniWhyNot = c.n.jniLoaded()
                ? "no clock through the JNI library can be used (" + String.join("; ", whyNot) + ")"
                : "the native library did not load" + paren(c.n.jniProblem());
        Eval jna = jnaMillis(c, requireFaster, false, prefix + "; " + jniWhyNot);
        if (jna.choice != null) {
            return jna.choice;
        }
        addDistinct(whyNot, jna.whyNot);
        return new Choice(Backend.SYSTEM, prefix + ", but no faster clock can be used: " + String.join("; ", whyNot)
                + "; so currentTimeMillis stays on the system clock.", 0);
    }

    /** An explicitly requested millis backend: honoured if it can be, else SYSTEM and a warning. */
    private Choice explicitMillis(Ctx c, String name, Eval e, double candidateNs, List<String> warnings) {
        if (e.choice == null) {
            String text = "millis=" + name + " cannot be honoured: " + e.whyNot
                    + "; currentTimeMillis stays on the system clock";
            warnings.add(text);
            return new Choice(Backend.SYSTEM, text + ".", 0);
        }
        String slower = slowerNote(name, "millis", candidateNs, MILLIS, c.m.compiledRealtimeNs());
        if (slower != null) {
            warnings.add(slower);
        }
        return new Choice(e.choice.backend(), "millis=" + name + " was requested: " + e.choice.reason()
                + slowerSentence(candidateNs, MILLIS, c.m.compiledRealtimeNs()), e.choice.lagNs());
    }

    /**
     * CLOCK_REALTIME_COARSE through JNI for currentTimeMillis.
     *
     * @param prefix start of the reason sentence; null for a bare description (explicit request)
     */
    private Eval coarseMillis(Ctx c, boolean requireFaster, boolean explicit, String prefix) {
        String why = coarseProblem(c, "CLOCK_REALTIME_COARSE", c.n.jniLoaded(),
                "the native library did not load" + paren(c.n.jniProblem()));
        if (why != null) {
            return Eval.no(why);
        }
        double ns = c.m.realtimeCoarseNs();
        if (requireFaster && !faster(ns, c.m.compiledRealtimeNs())) {
            return Eval.no(notFaster("CLOCK_REALTIME_COARSE through JNI", ns, c.m.compiledRealtimeNs(), MILLIS));
        }
        // After the cost: the lag is measured only where the clock would be chosen (MachineProbe).
        why = coarseLagProblem(c, explicit);
        if (why != null) {
            return Eval.no(why);
        }
        long res = c.m.coarseResolutionNs();
        long lag = coarseLagNs(c);
        String what = "CLOCK_REALTIME_COARSE through JNI (" + ns(ns) + " a read from compiled Java), which ticks every "
                + ms(res) + " and lags the system clock by up to " + ms(lag) + lagNote(c) + ".";
        return new Eval(new Choice(Backend.COARSE, sentence(prefix, "currentTimeMillis uses " + what), lag), null);
    }

    /** The L a coarse millis states here: from the lag measured at start, or two ticks where none was measured. */
    private static long coarseLagNs(Ctx c) {
        long res = c.m.coarseResolutionNs();
        long measured = c.m.coarseLagNs();
        return measured == Measurements.UNKNOWN_LAG ? CoarseLag.floorNs(res) : CoarseLag.statedNs(res, measured);
    }

    /** " (measured up to 3.2 ms behind at start-up, plus a tick)" or "". */
    private static String lagNote(Ctx c) {
        long measured = c.m.coarseLagNs();
        if (measured == Measurements.UNKNOWN_LAG) {
            return " (two ticks: its lag was not measured)";
        }
        return " (measured " + (measured <= 0 ? "never behind" : "up to " + ms(measured) + " behind")
                + " CLOCK_REALTIME, plus a tick of margin, at least two ticks)";
    }

    /**
     * Why the coarse clock's lag cannot be stated, or null. auto and mode=on need it measured and
     * within the cap; a coarse clock named by the user takes two ticks where it was not measured,
     * and is refused like any other when the measured lag is over the cap.
     */
    private static String coarseLagProblem(Ctx c, boolean explicit) {
        long res = c.m.coarseResolutionNs();
        long measured = c.m.coarseLagNs();
        if (measured == Measurements.UNKNOWN_LAG) {
            return explicit ? null
                    : "the coarse clock's lag behind CLOCK_REALTIME was not measured, so its lag cannot be stated";
        }
        long stated = CoarseLag.statedNs(res, measured);
        if (!CoarseLag.withinCap(res, stated)) {
            return "CLOCK_REALTIME_COARSE was measured " + ms(measured) + " behind CLOCK_REALTIME, so its lag (" + ms(stated)
                    + " with a tick of margin) is over the " + ms(CoarseLag.capNs(res)) + " accepted";
        }
        return null;
    }

    private Eval tscMillis(Ctx c, boolean requireFaster, String prefix) {
        if (c.tscBlocker != null) {
            return Eval.no(c.tscBlocker);
        }
        double ns = c.m.tscNs();
        if (requireFaster && !faster(ns, c.m.compiledRealtimeNs())) {
            return Eval.no(notFaster("the TSC clock", ns, c.m.compiledRealtimeNs(), MILLIS));
        }
        long lag = statedMillisLagNs(Backend.TSC, c.m.coarseResolutionNs());
        String what = "the TSC clock (" + ns(ns) + " a TSC read), which keeps within "
                + ms(lag) + " of the system clock.";
        return new Eval(new Choice(Backend.TSC, sentence(prefix, "currentTimeMillis uses " + what), lag), null);
    }

    /** @param explicit requested by name: JNA measured slower than the system clock is then still allowed */
    private Eval jnaMillis(Ctx c, boolean requireFaster, boolean explicit, String prefix) {
        String why = coarseProblem(c, "CLOCK_REALTIME_COARSE", c.n.jnaAvailable(),
                "JNA is not available" + paren(c.n.jnaProblem()));
        if (why == null) {
            why = coarseLagProblem(c, explicit);
        }
        if (why != null) {
            return Eval.no(why);
        }
        double ns = c.m.jnaCoarseNs();
        double sys = c.m.compiledRealtimeNs();
        if (requireFaster && !faster(ns, sys)) {
            return Eval.no("CLOCK_REALTIME_COARSE through JNA was not measurably faster (" + ns(ns) + ")");
        }
        if (!explicit && !Double.isNaN(ns) && !Double.isNaN(sys) && ns >= sys) {
            return Eval.no("CLOCK_REALTIME_COARSE through JNA costs " + ns(ns) + ", no less than the system clock");
        }
        long res = c.m.coarseResolutionNs();
        long lag = coarseLagNs(c);
        String what = "CLOCK_REALTIME_COARSE through JNA (" + ns(ns) + " a read), which ticks every " + ms(res)
                + " and lags the system clock by up to " + ms(lag) + lagNote(c) + ".";
        return new Eval(new Choice(Backend.JNA_COARSE, sentence(prefix, "currentTimeMillis uses " + what), lag), null);
    }

    // ---------------------------------------------------------------- nanoTime

    private Choice decideNanos(Ctx c, List<String> warnings) {
        double sys = c.m.monotonicNs();
        double compiledSys = c.m.compiledMonotonicNs();
        switch (c.s.nanos()) {
            case SYSTEM:
                return new Choice(Backend.SYSTEM, "nanos=system was requested, so nanoTime stays on the system clock.", 0);
            case COARSE: {
                long res = c.m.coarseResolutionNs();
                String why = coarseProblem(c, "CLOCK_MONOTONIC_COARSE", c.n.jniLoaded(),
                        "the native library did not load" + paren(c.n.jniProblem()));
                if (why != null) {
                    String text = "nanos=coarse cannot be honoured: " + why + "; nanoTime stays on the system clock";
                    warnings.add(text);
                    return new Choice(Backend.SYSTEM, text + ".", 0);
                }
                warnings.add(Settings.coarseWarning(res));
                double ns = c.m.monotonicCoarseNs();
                String reason = "nanos=coarse was requested: nanoTime uses CLOCK_MONOTONIC_COARSE through JNI ("
                        + ns(ns) + " a read), which ticks only every " + ms(res) + " and lags the system clock by up to "
                        + ms(2 * res) + ".";
                String slower = slowerNote(Backend.COARSE.settingName(), "nanos", ns, NANOS, compiledSys);
                if (slower != null) {
                    warnings.add(slower);
                    reason += slowerSentence(ns, NANOS, compiledSys);
                }
                return new Choice(Backend.COARSE, reason, 2 * res);
            }
            case TSC: {
                if (c.tscBlocker != null) {
                    String text = "nanos=tsc cannot be honoured safely: " + c.tscBlocker
                            + "; nanoTime stays on the system clock";
                    warnings.add(text);
                    return new Choice(Backend.SYSTEM, text + ".", 0);
                }
                String reason = "nanos=tsc was requested: nanoTime uses the TSC clock (" + ns(c.m.tscNs()) + " a TSC read).";
                String slower = slowerNote(Backend.TSC.settingName(), "nanos", c.m.tscNs(), NANOS, compiledSys);
                if (slower != null) {
                    warnings.add(slower);
                    reason += slowerSentence(c.m.tscNs(), NANOS, compiledSys);
                }
                return new Choice(Backend.TSC, reason, 0);
            }
            case AUTO:
            default:
                break;
        }
        boolean on = c.s.mode() == Settings.Mode.ON;
        String noCoarse = " (a coarse nanoTime is used only when nanos=coarse is named)";
        if (on) {
            String prefix = "mode=on: " + c.cost(NANOS, sys);
            if (c.tscBlocker == null) {
                return new Choice(Backend.TSC, prefix + "; nanoTime uses the TSC clock (" + ns(c.m.tscNs()) + " a TSC read).", 0);
            }
            return new Choice(Backend.SYSTEM, prefix + ", but the TSC cannot be used safely: " + c.tscBlocker
                    + "; so nanoTime stays on the system clock" + noCoarse + ".", 0);
        }
        if (!c.nanosSlow) {
            return new Choice(Backend.SYSTEM, notSlow(c, NANOS, sys) + ", so nanoTime stays on the system clock.", 0);
        }
        String prefix = c.cost(NANOS, sys);
        if (c.tscBlocker != null) {
            return new Choice(Backend.SYSTEM, prefix + ", but the TSC cannot be used safely: " + c.tscBlocker
                    + "; so nanoTime stays on the system clock" + noCoarse + ".", 0);
        }
        double tsc = c.m.tscNs();
        if (!faster(tsc, compiledSys)) {
            return new Choice(Backend.SYSTEM, prefix + ", but " + notFaster("the TSC clock", tsc, compiledSys, NANOS)
                    + ", so nanoTime stays on the system clock.", 0);
        }
        return new Choice(Backend.TSC, prefix + "; nanoTime uses the TSC clock (" + ns(tsc) + " a TSC read).", 0);
    }

    // ---------------------------------------------------------------- shared pieces

    /** Why a coarse clock cannot be used, or null. */
    private static String coarseProblem(Ctx c, String clock, boolean reachable, String unreachable) {
        if (!reachable) {
            return unreachable;
        }
        long res = c.m.coarseResolutionNs();
        if (res <= 0) {
            return "the resolution of " + clock + " is unknown, so its lag cannot be stated";
        }
        if (res > MAX_COARSE_RESOLUTION_NS) {
            return clock + " ticks only every " + ms(res) + ", coarser than the " + ms(MAX_COARSE_RESOLUTION_NS)
                    + " accepted";
        }
        return null;
    }

    /**
     * "the TSC clock was not measurably faster from compiled Java (250 ns a read against 130 ns for
     * System.currentTimeMillis)", or "... (unmeasured)".
     */
    private static String notFaster(String what, double candidateNs, double systemNs, String clock) {
        String numbers = Double.isNaN(candidateNs) ? "unmeasured"
                : Double.isNaN(systemNs) ? ns(candidateNs) + " a read; " + clock + " unmeasured"
                : ns(candidateNs) + " a read against " + ns(systemNs) + " for " + clock;
        return what + " was not measurably faster from compiled Java (" + numbers + ")";
    }

    /** "System.currentTimeMillis costs 24 ns here (clocksource tsc), under the 100 ns threshold". */
    private static String notSlow(Ctx c, String clock, double ns) {
        if (Double.isNaN(ns)) {
            return clock + " was not measured and clocksource " + c.f.clocksourceForDisplay()
                    + " is not known to be slow";
        }
        return c.cost(clock, ns) + ", under the " + c.s.thresholdNs() + " ns threshold";
    }

    /** A note when an explicitly requested backend was measured slower than the system clock, else null. */
    private static String slowerNote(String name, String key, double candidateNs, String clock, double systemNs) {
        if (Double.isNaN(candidateNs) || Double.isNaN(systemNs) || candidateNs <= systemNs) {
            return null;
        }
        return key + "=" + name + " is honoured because it was requested, but it costs " + ns(candidateNs)
                + " a read here against " + ns(systemNs) + " for " + clock;
    }

    /** " It costs 160 ns a read here against 24 ns for System.currentTimeMillis." or "". */
    private static String slowerSentence(double candidateNs, String clock, double systemNs) {
        if (Double.isNaN(candidateNs) || Double.isNaN(systemNs) || candidateNs <= systemNs) {
            return "";
        }
        return " It costs " + ns(candidateNs) + " a read here against " + ns(systemNs) + " for " + clock + ".";
    }

    /** Summary line for stderr. */
    private static String summary(Ctx c, Choice millis, Choice nanos) {
        String cs = "clocksource " + c.f.clocksourceForDisplay();
        if (millis.backend() != Backend.SYSTEM || nanos.backend() != Backend.SYSTEM) {
            StringBuilder sb = new StringBuilder(OneLine.PREFIX + "active: currentTimeMillis -> ")
                    .append(millis.backend().settingName()).append(", nanoTime -> ")
                    .append(nanos.backend().settingName()).append(" (").append(cs);
            List<String> costs = new ArrayList<>();
            if (!Double.isNaN(c.m.realtimeNs())) {
                costs.add(MILLIS + " " + ns(c.m.realtimeNs()) + "/call");
            }
            if (!Double.isNaN(c.m.monotonicNs())) {
                costs.add(NANOS + " " + ns(c.m.monotonicNs()) + "/call");
            }
            if (!costs.isEmpty()) {
                sb.append("; ").append(String.join(", ", costs));
            }
            long res = c.m.coarseResolutionNs();
            // The millis resolution and lag follow in the agent's start line (AgentStartup).
            if (nanos.backend() == Backend.COARSE) {
                sb.append("; nanoTime ticks every ").append(ms(res));
            }
            boolean tscWanted = c.s.nanos() == Settings.Nanos.AUTO || c.s.nanos() == Settings.Nanos.TSC
                    || c.s.millis() == Settings.Millis.AUTO || c.s.millis() == Settings.Millis.TSC;
            if (tscWanted && c.tscBlocker != null && millis.backend() != Backend.TSC && nanos.backend() != Backend.TSC) {
                sb.append("; TSC not used: ").append(c.tscBlocker);
            }
            return sb.append(')').toString();
        }
        if (ActivationRules.fastHere(c.s, c.f.clocksourceKnownSlow(), c.m.realtimeNs(), c.m.monotonicNs())) {
            return ActivationRules.fastHereLine(c.f.clocksourceForDisplay(), ns(c.m.realtimeNs()), ns(c.m.monotonicNs()),
                    c.s.thresholdNs());
        }
        return OneLine.PREFIX + "inactive: " + millis.reason() + " " + nanos.reason();
    }

    private static void addDistinct(List<String> list, String s) {
        if (!list.contains(s)) {
            list.add(s);
        }
    }

    /** Measured and cheaper; an unmeasured cost is never "faster". */
    private static boolean faster(double candidateNs, double systemNs) {
        return !Double.isNaN(candidateNs) && !Double.isNaN(systemNs) && candidateNs < systemNs;
    }

    private static String sentence(String prefix, String rest) {
        if (prefix == null) {
            return rest;
        }
        return prefix + "; " + rest;
    }

    private static String paren(String problem) {
        return problem == null || problem.isEmpty() ? "" : " (" + problem + ")";
    }

    /** "612 ns", "8.2 ns", "unmeasured". */
    static String ns(double ns) {
        if (Double.isNaN(ns)) {
            return "unmeasured";
        }
        if (ns < 10 && Math.abs(ns - Math.rint(ns)) >= 0.05) {
            return String.format(Locale.ROOT, "%.1f ns", ns);
        }
        return Math.round(ns) + " ns";
    }

    /** {@link #ms(long)} for other classes' lines: "9.8 ms", "250 us". */
    public static String msText(long ns) {
        return ms(ns);
    }

    /** "4 ms", "3.33 ms", "250 us", "unknown". */
    static String ms(long ns) {
        if (ns <= 0) {
            return "an unknown interval";
        }
        if (ns < 1_000_000L) {
            return (ns % 1000 == 0 ? String.valueOf(ns / 1000) : String.format(Locale.ROOT, "%.1f", ns / 1e3)) + " us";
        }
        if (ns % 1_000_000L == 0) {
            return (ns / 1_000_000L) + " ms";
        }
        String s = String.format(Locale.ROOT, "%.2f", ns / 1e6);
        s = s.replaceAll("0+$", "").replaceAll("\\.$", "");
        return s + " ms";
    }
}
