package io.fastclock.decide;

import io.fastclock.config.Backend;
import io.fastclock.config.OneLine;
import io.fastclock.probe.MachineFacts;
import io.fastclock.config.JdkSetting;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Every phrase the decision gives as a reason, a warning or a line, each written once. The rules
 * ({@link TscRules}, {@link MillisChoice}, {@link NanosChoice}, {@link StartLine},
 * {@link ActivationRules}, {@link JavaTimeCoverage}) say which applies; these say it, and decide
 * nothing but how a number is written. Tests hold the texts (DecisionMakerTest and the others), so a
 * change here is a change a person sees.
 */
public final class Reasons {
    private Reasons() {}

    private static final String CURRENT_TIME_MILLIS = "currentTimeMillis";
    private static final String NANO_TIME = "nanoTime";

    /** The two clocks a decision is about, as the reasons name them. */
    enum Clock {
        MILLIS(CURRENT_TIME_MILLIS, "millis"),
        NANOS(NANO_TIME, "nanos");

        /** "currentTimeMillis": the method, as the start line names it. */
        final String method;
        /** "millis": the setting that names its backend. */
        final String setting;

        Clock(String method, String setting) {
            this.method = method;
            this.setting = setting;
        }

        /** "System.currentTimeMillis". */
        String system() {
            return "System." + method;
        }
    }

    // ---------------------------------------------------------------- numbers

    private static final String UNMEASURED = "unmeasured";

    /** "612 ns", "8.2 ns", "unmeasured". */
    public static String ns(double ns) {
        if (Double.isNaN(ns)) {
            return UNMEASURED;
        }
        if (ns < 10 && Math.abs(ns - Math.rint(ns)) >= 0.05) {
            return String.format(Locale.ROOT, "%.1f ns", ns);
        }
        return Math.round(ns) + " ns";
    }

    /** "4 ms", "3.33 ms", "250 us", "an unknown interval". */
    public static String ms(long ns) {
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

    /** " (detail)", or "" where there is none. */
    static String paren(String detail) {
        return detail == null || detail.isEmpty() ? "" : " (" + detail + ")";
    }

    /** "prefix; rest", or rest alone where there is no prefix. */
    static String joined(String prefix, String rest) {
        return prefix == null ? rest : prefix + "; " + rest;
    }

    /** A reason is a warning said as a sentence. */
    static String fullStop(String clause) {
        return clause + ".";
    }

    // ---------------------------------------------------------------- the clocks and what they cost

    static final String CLOCK_REALTIME = "CLOCK_REALTIME";
    static final String REALTIME_COARSE = "CLOCK_REALTIME_COARSE";
    static final String MONOTONIC_COARSE = "CLOCK_MONOTONIC_COARSE";
    private static final String VIA_JNI = " through JNI";
    private static final String VIA_JNA = " through JNA";
    /** The candidates as "was not measurably faster" names them. */
    static final String TSC_CLOCK = "the TSC clock";
    static final String COARSE_VIA_JNI = REALTIME_COARSE + VIA_JNI;
    private static final String COARSE_VIA_JNA = REALTIME_COARSE + VIA_JNA;
    private static final String SYSTEM_CLOCK = "the system clock";
    private static final String KNOWN_SLOW = "known to be slow";
    private static final String NOT_MEASURABLY_FASTER = " was not measurably faster";

    /** "clocksource hpet, known to be slow". */
    private static String clocksource(MachineFacts machine) {
        return "clocksource " + machine.clocksourceForDisplay() + (machine.clocksourceKnownSlow() ? ", " + KNOWN_SLOW : "");
    }

    /** "System.nanoTime costs 612 ns here (clocksource hpet, known to be slow)". */
    static String cost(Clock clock, double ns, MachineFacts machine) {
        if (Double.isNaN(ns)) {
            return clock.system() + " was not measured (" + clocksource(machine) + ")";
        }
        return clock.system() + " costs " + ns(ns) + " here (" + clocksource(machine) + ")";
    }

    /** "mode=on: " and the cost. */
    static String modeOnCost(Clock clock, double ns, MachineFacts machine) {
        return "mode=on: " + cost(clock, ns, machine);
    }

    /** "System.currentTimeMillis costs 24 ns here (clocksource tsc), under the 100 ns threshold". */
    private static String notSlow(Clock clock, double ns, MachineFacts machine, long thresholdNs) {
        if (Double.isNaN(ns)) {
            return clock.system() + " was not measured and clocksource " + machine.clocksourceForDisplay()
                    + " is not " + KNOWN_SLOW;
        }
        return cost(clock, ns, machine) + ", under the " + thresholdNs + " ns threshold";
    }

    /**
     * "the TSC clock was not measurably faster from compiled Java (250 ns a read against 130 ns for
     * System.currentTimeMillis)", or "... (unmeasured)".
     */
    static String notFaster(String candidate, double candidateNs, double systemNs, Clock clock) {
        String numbers = Double.isNaN(candidateNs) ? UNMEASURED
                : Double.isNaN(systemNs) ? ns(candidateNs) + " a read; " + clock.system() + " " + UNMEASURED
                : ns(candidateNs) + " a read against " + ns(systemNs) + " for " + clock.system();
        return candidate + NOT_MEASURABLY_FASTER + " from compiled Java (" + numbers + ")";
    }

    /** The start line's note where a backend was taken unconfirmed ({@link #unconfirmed}). */
    static final String UNCONFIRMED_NOTE = "not yet timed from compiled Java (the CPUs were busy): measured again while running";

    /**
     * " Its cost from compiled Java was not measured (the CPUs were busy); against 700 ns for
     * System.nanoTime timed in C it is taken, and measured again while running."
     */
    static String unconfirmed(double systemNsInC, Clock clock) {
        return " Its cost from compiled Java was not measured (the CPUs were busy); against " + ns(systemNsInC) + " for "
                + clock.system() + " timed in C it is taken, and measured again while running.";
    }

    /** " It costs 160 ns a read here against 24 ns for System.currentTimeMillis." */
    static String costsMore(double candidateNs, Clock clock, double systemNs) {
        return " It" + costsMoreThan(candidateNs, clock, systemNs) + ".";
    }

    private static String costsMoreThan(double candidateNs, Clock clock, double systemNs) {
        return " costs " + ns(candidateNs) + " a read here against " + ns(systemNs) + " for " + clock.system();
    }

    // ---------------------------------------------------------------- what a clock gets

    private static String staysOnSystemClock(Clock clock) {
        return clock.method + " stays on " + SYSTEM_CLOCK;
    }

    /** "millis=coarse": a backend named by the clock's setting. */
    private static String named(Clock clock, String backend) {
        return clock.setting + "=" + backend;
    }

    private static String requested(Clock clock, String backend) {
        return named(clock, backend) + " was requested";
    }

    private static final String MODE_OFF = "mode=off";

    /** "mode=off: the agent rewrites nothing." */
    static final String OFF = MODE_OFF + ": the agent rewrites nothing.";

    /** "millis=system was requested, so currentTimeMillis stays on the system clock." */
    static String systemRequested(Clock clock) {
        return requested(clock, Backend.SYSTEM.settingName()) + ", so " + staysOnSystemClock(clock) + ".";
    }

    /** The system clock is not slow, so the clock stays on it. */
    static String notSlowSoSystem(Clock clock, double ns, MachineFacts machine, long thresholdNs) {
        return notSlow(clock, ns, machine, thresholdNs) + ", so " + staysOnSystemClock(clock) + ".";
    }

    /** "millis=coarse cannot be honoured: why; currentTimeMillis stays on the system clock" (a warning). */
    static String cannotHonour(Clock clock, String backend, String why) {
        return named(clock, backend) + " cannot be honoured: " + why + "; " + staysOnSystemClock(clock);
    }

    /** As {@link #cannotHonour}, for a backend that would not be safe: "nanos=tsc cannot be honoured safely: ...". */
    static String cannotHonourSafely(Clock clock, String backend, String why) {
        return named(clock, backend) + " cannot be honoured safely: " + why + "; " + staysOnSystemClock(clock);
    }

    /** "millis=coarse was requested: " and what it uses. */
    static String requestedAndUsed(Clock clock, String backend, String uses) {
        return requested(clock, backend) + ": " + uses;
    }

    /** A warning: "nanos=tsc is honoured because it was requested, but it costs 40 ns a read here against 23 ns for ...". */
    static String honouredThoughSlower(Clock clock, String backend, double candidateNs, double systemNs) {
        return named(clock, backend) + " is honoured because it was requested, but it"
                + costsMoreThan(candidateNs, clock, systemNs);
    }

    /** "cost, but no faster clock can be used: why; why; so currentTimeMillis stays on the system clock." */
    static String noFasterClock(String cost, List<String> whyNot, Clock clock) {
        return cost + ", but no faster clock can be used: " + String.join("; ", whyNot) + "; so "
                + staysOnSystemClock(clock) + ".";
    }

    /** "cost, but why, so nanoTime stays on the system clock." */
    static String butSoSystem(String cost, String why, Clock clock) {
        return cost + ", but " + why + ", so " + staysOnSystemClock(clock) + ".";
    }

    /** nanoTime without the TSC, where a coarse clock is not an option. */
    static String tscUnsafeSoSystemNanos(String cost, String tscBlocker) {
        return cost + ", but the TSC cannot be used safely: " + tscBlocker + "; so " + staysOnSystemClock(Clock.NANOS)
                + " (a coarse nanoTime is used only when nanos=coarse is named).";
    }

    /** "currentTimeMillis uses " and what. */
    static String uses(Clock clock, String what) {
        return clock.method + " uses " + what;
    }

    /** "the TSC clock (15 ns a TSC read)". */
    private static String tscClock(double ns) {
        return TSC_CLOCK + " (" + ns(ns) + " a TSC read)";
    }

    /** nanoTime on the TSC clock. */
    static String tscNanos(double ns) {
        return tscClock(ns) + ".";
    }

    /** currentTimeMillis on the TSC clock. */
    static String tscMillis(double ns, long lagNs) {
        return tscClock(ns) + ", which keeps within " + ms(lagNs) + " of " + SYSTEM_CLOCK + ".";
    }

    private static String ticksAndLags(boolean only, long resolutionNs, long lagNs) {
        return "which ticks " + (only ? "only " : "") + "every " + ms(resolutionNs) + " and lags " + SYSTEM_CLOCK
                + " by up to " + ms(lagNs);
    }

    /** currentTimeMillis on CLOCK_REALTIME_COARSE through JNI. */
    static String coarseMillisViaJni(double ns, long resolutionNs, long lagNs, String lagNote) {
        return COARSE_VIA_JNI + " (" + ns(ns) + " a read from compiled Java), " + ticksAndLags(false, resolutionNs, lagNs)
                + lagNote + ".";
    }

    /** currentTimeMillis on CLOCK_REALTIME_COARSE through JNA. */
    static String coarseMillisViaJna(double ns, long resolutionNs, long lagNs, String lagNote) {
        return COARSE_VIA_JNA + " (" + ns(ns) + " a read), " + ticksAndLags(false, resolutionNs, lagNs) + lagNote + ".";
    }

    /** nanoTime on CLOCK_MONOTONIC_COARSE through JNI. */
    static String coarseNanos(double ns, long resolutionNs, long lagNs) {
        return MONOTONIC_COARSE + VIA_JNI + " (" + ns(ns) + " a read), " + ticksAndLags(true, resolutionNs, lagNs) + ".";
    }

    /** The warning a coarse nanoTime gives, whatever else is said. */
    static String coarseNanosWarning(long resolutionNs) {
        String res = resolutionNs > 0 ? warningMs(resolutionNs) + " resolution" : "resolution unknown";
        return "nanos=coarse: nanoTime will tick only once per kernel tick (" + res + ")";
    }

    /** How the coarse nanoTime warning writes a tick: "4 ms", "3.33 ms", "0.25 ms" (not {@link #ms}'s "250 us"). */
    private static String warningMs(long ns) {
        if (ns % 1_000_000 == 0) {
            return (ns / 1_000_000) + " ms";
        }
        return String.format(Locale.ROOT, "%.2f ms", ns / 1e6).replaceAll("0+ ms$", " ms").replace(". ms", " ms");
    }

    // ---------------------------------------------------------------- why a coarse clock is not used

    private static final String LAG_CANNOT_BE_STATED = ", so its lag cannot be stated";

    /** " (two ticks: its lag was not measured)". */
    static final String LAG_NOT_MEASURED_NOTE = " (two ticks: its lag was not measured)";

    /** " (measured up to 3.2 ms behind CLOCK_REALTIME, plus a tick of margin, at least two ticks)". */
    static String lagMeasuredNote(long measuredNs) {
        return " (measured " + (measuredNs <= 0 ? "never behind" : "up to " + ms(measuredNs) + " behind")
                + " " + CLOCK_REALTIME + ", plus a tick of margin, at least two ticks)";
    }

    static final String COARSE_LAG_NOT_MEASURED = "the coarse clock's lag behind " + CLOCK_REALTIME + " was not measured"
            + LAG_CANNOT_BE_STATED;

    static String coarseLagOverCap(long measuredNs, long statedNs, long capNs) {
        return REALTIME_COARSE + " was measured " + ms(measuredNs) + " behind " + CLOCK_REALTIME + ", so its lag ("
                + ms(statedNs) + " with a tick of margin) is over the " + ms(capNs) + " accepted";
    }

    static String resolutionUnknown(String clock) {
        return "the resolution of " + clock + " is unknown" + LAG_CANNOT_BE_STATED;
    }

    static String tooCoarse(String clock, long resolutionNs, long maxNs) {
        return clock + " ticks only every " + ms(resolutionNs) + ", coarser than the " + ms(maxNs) + " accepted";
    }

    /** Why auto looked past the coarse clock before the TSC clock. */
    static String coarseTicksOnlyEvery(long resolutionNs) {
        return "the coarse clock ticks only every " + ms(resolutionNs);
    }

    static final String COARSE_RESOLUTION_UNKNOWN = "the coarse clock's resolution is unknown";

    static String tscNotUsedBecause(String why) {
        return TSC_CLOCK + " is not used because " + why;
    }

    static String noJniClock(List<String> whyNot) {
        return "no clock through the JNI library can be used (" + String.join("; ", whyNot) + ")";
    }

    static String nativeNotLoaded(String problem) {
        return "the native library did not load" + paren(problem);
    }

    static String jnaUnavailable(String problem) {
        return "JNA is not available" + paren(problem);
    }

    static String jnaNotFaster(double ns) {
        return COARSE_VIA_JNA + NOT_MEASURABLY_FASTER + " (" + ns(ns) + ")";
    }

    static String jnaNoCheaper(double ns) {
        return COARSE_VIA_JNA + " costs " + ns(ns) + ", no less than " + SYSTEM_CLOCK;
    }

    // ---------------------------------------------------------------- why the TSC is not used

    private static final String CPU_LACKS = "the CPU lacks ";

    static String notX86(String arch) {
        return "the TSC is used only on x86_64 and this machine is " + (arch == null ? "of unknown architecture" : arch);
    }

    static final String CPU_FLAGS_UNREAD =
            "the CPU flags could not be read from cpuinfo, so constant_tsc and nonstop_tsc cannot be confirmed";
    static final String NO_CONSTANT_TSC = CPU_LACKS + "constant_tsc (its TSC rate may follow the CPU frequency)";
    static final String NO_NONSTOP_TSC = CPU_LACKS + "nonstop_tsc (its TSC may stop in deep idle states)";
    static final String AVAILABLE_CLOCKSOURCES_UNREAD =
            "available_clocksource could not be read, so it is unknown whether the kernel still trusts the TSC";
    static final String TSC_NO_LONGER_LISTED =
            "the kernel no longer lists tsc in available_clocksource (its watchdog found it unstable)";

    /** The doctor's longer word for {@link #TSC_NO_LONGER_LISTED}, with what the kernel lists and uses. */
    static String tscLeftOut(List<String> available, String current) {
        return "the kernel left tsc out of available_clocksource (" + String.join(" ", available)
                + "): its clocksource watchdog found the TSC unstable, or the kernel never registered it"
                + (current == null ? "" : "; the kernel uses " + current);
    }

    /** "the CPU lacks constant_tsc (which says ...), nonstop_tsc (which says ...)". */
    static String cpuLacks(List<String> flags) {
        List<String> described = new ArrayList<>();
        for (String flag : flags) {
            described.add(flag + " (" + flagPromise(flag) + ")");
        }
        return CPU_LACKS + String.join(", ", described);
    }

    /** What a CPU flag the TSC clock needs promises. */
    private static String flagPromise(String flag) {
        switch (flag) {
            case "tsc":
                return "which says the CPU has a time-stamp counter";
            case "constant_tsc":
                return "which says the TSC rate does not follow the CPU frequency";
            case "nonstop_tsc":
                return "which says the TSC does not stop in deep idle states";
            default:
                throw new IllegalArgumentException(flag);
        }
    }

    static final String TSC_CHECKS_NOT_RUN = "the TSC checks (CPUID, calibration, cross-CPU) were not run";
    static final String NO_INVARIANT_TSC = "CPUID does not report an invariant TSC";

    static String crossCpuFailed(String problem) {
        return "the cross-CPU check failed: " + problem;
    }

    static String notCalibrated(String problem) {
        return "TSC calibration did not converge" + paren(problem);
    }

    // ---------------------------------------------------------------- the start line

    private static final String ACTIVE = OneLine.PREFIX + "active: ";
    private static final String INACTIVE = OneLine.PREFIX + "inactive: ";

    /** The one line {@code mode=off} writes (none with log=quiet), and its verdict. */
    public static final String OFF_LINE = INACTIVE + MODE_OFF;

    /**
     * "fastclock: active: currentTimeMillis -> tsc, nanoTime -> tsc (clocksource hpet; ...)".
     *
     * @param notes what follows the clocksource in the parentheses, each already worded
     */
    static String activeLine(Backend millis, Backend nanos, String clocksource, List<String> notes) {
        StringBuilder line = new StringBuilder(ACTIVE).append(CURRENT_TIME_MILLIS).append(" -> ")
                .append(millis.settingName()).append(", ").append(NANO_TIME).append(" -> ")
                .append(nanos.settingName()).append(" (clocksource ").append(clocksource);
        for (String note : notes) {
            line.append("; ").append(note);
        }
        return line.append(')').toString();
    }

    /** "System.currentTimeMillis 600 ns/call, System.nanoTime 612 ns/call", the unmeasured left out; null if both are. */
    static String callCosts(double millisNs, double nanosNs) {
        List<String> costs = new ArrayList<>();
        if (!Double.isNaN(millisNs)) {
            costs.add(Clock.MILLIS.system() + " " + ns(millisNs) + "/call");
        }
        if (!Double.isNaN(nanosNs)) {
            costs.add(Clock.NANOS.system() + " " + ns(nanosNs) + "/call");
        }
        return costs.isEmpty() ? null : String.join(", ", costs);
    }

    static String nanosTicks(long resolutionNs) {
        return NANO_TIME + " ticks every " + ms(resolutionNs);
    }

    static String tscNotUsed(String why) {
        return "TSC not used: " + why;
    }

    /** Neither clock replaced, each with its reason. */
    static String inactiveLine(String millisReason, String nanosReason) {
        return INACTIVE + millisReason + " " + nanosReason;
    }

    /**
     * The line of {@link ActivationRules#fastHere}: "fastclock: inactive: system clocks are fast here
     * (clocksource tsc; currentTimeMillis 24 ns, nanoTime 23 ns; threshold 100 ns)", each cost as the
     * caller states it.
     */
    static String fastHereLine(String clocksource, String millisCost, String nanosCost, long thresholdNs) {
        return INACTIVE + "system clocks are fast here (clocksource " + clocksource + "; " + CURRENT_TIME_MILLIS + " "
                + millisCost + ", " + NANO_TIME + " " + nanosCost + "; threshold " + thresholdNs + " ns)";
    }

    /** A cost timed before compilation, as the fast-here line states it: "75 ns". */
    static String roundNs(double ns) {
        return Math.round(ns) + " ns";
    }

    /** The same, said to be a bound: "75 ns at most (timed before compilation)". */
    static String interpretedBound(double ns) {
        return roundNs(ns) + " at most (timed before compilation)";
    }

    // ---------------------------------------------------------------- java.time and the JDK's reads

    private static final String ON_JDK_CLOCK = " on the JDK's clock";
    private static final String DATE_APIS_ON_JDK = "java.time and the date APIs stay" + ON_JDK_CLOCK;
    private static final String NO_TSC_CLOCK = "no TSC clock";
    private static final String MILLIS_NOT_COARSE = CURRENT_TIME_MILLIS + " is not on a coarse clock";
    private static final String INSTANT_COARSE = "instant=coarse";

    static final String NO_JDK_CLASS_CHANGED = "no JDK class changed (jdk=none)";

    /** java.time and the date APIs on the JDK's clock: nothing worth serving, or java.base cannot reach the runtime. */
    static String dateApisOnJdk(boolean nothingServed) {
        return DATE_APIS_ON_JDK + " (" + (nothingServed ? NO_TSC_CLOCK + ", and " + MILLIS_NOT_COARSE
                : "java.base cannot reach the fastclock runtime") + ")";
    }

    static String jdkScope(JdkSetting scope) {
        return "jdk=" + scope.settingName();
    }

    static String javaTimeOnTsc(String jdk, String changed) {
        return "java.time -> " + Backend.TSC.settingName() + " (" + jdk + ")" + changed;
    }

    static String javaTimeOnCoarse(String millis, long resolutionNs, String jdk, String changed) {
        return "java.time -> " + millis + " at " + tick(resolutionNs) + " resolution (" + INSTANT_COARSE + ", " + jdk + ")"
                + changed;
    }

    static String onlyMillisReadsServed(String millis, long resolutionNs, String jdk, String changed) {
        return "java.time stays" + ON_JDK_CLOCK + " (" + NO_TSC_CLOCK + "; " + INSTANT_COARSE + " would serve it at "
                + tick(resolutionNs) + " resolution); Date/Calendar/Clock.millis -> " + millis + " (" + jdk + ")" + changed;
    }

    static String nothingServed(String jdk, String changed) {
        return dateApisOnJdk(true) + " (" + jdk + ")" + changed;
    }

    static final String INSTANT_COARSE_UNUSED_TSC = INSTANT_COARSE + " unused: the TSC clock serves java.time at full resolution";
    static final String INSTANT_COARSE_UNUSED_MILLIS = INSTANT_COARSE + " unused: " + MILLIS_NOT_COARSE;
    static final String INSTANT_COARSE_UNUSED_NO_JDK_CLASS = INSTANT_COARSE + " unused: no JDK class is changed";

    /** How the java.time line writes a tick: "4 ms", "3.33 ms", "1.50 ms", or "one kernel tick of" where unknown. */
    private static String tick(long resolutionNs) {
        if (resolutionNs <= 0) {
            return "one kernel tick of";
        }
        long ms = resolutionNs / 1_000_000L;
        return ms >= 1 && resolutionNs % 1_000_000L == 0 ? ms + " ms"
                : String.format(Locale.ROOT, "%.2f ms", resolutionNs / 1e6);
    }
}
