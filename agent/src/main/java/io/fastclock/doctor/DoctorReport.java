package io.fastclock.doctor;

import io.fastclock.probe.JavaTimeCoverage;
import io.fastclock.probe.MachineProbe;
import io.fastclock.probe.TscClockStarter;
import io.fastclock.config.Settings;
import io.fastclock.measure.JavaCostMeter;
import io.fastclock.measure.MillisLagMeter;
import io.fastclock.measure.NativeCostMeter;
import io.fastclock.measure.TscRead;
import io.fastclock.measure.TscReadChoice;
import io.fastclock.probe.Backend;
import io.fastclock.probe.BackendNames;
import io.fastclock.probe.CoarseLag;
import io.fastclock.probe.Choice;
import io.fastclock.probe.Decision;
import io.fastclock.probe.DecisionMaker;
import io.fastclock.probe.MachineFacts;
import io.fastclock.probe.Measurements;
import io.fastclock.runtime.ClockRegistry;
import io.fastclock.clock.CoarseMillis;
import io.fastclock.clock.CoarseNanos;
import io.fastclock.runtime.EpochClock;
import io.fastclock.runtime.FastClock;
import io.fastclock.runtime.LongClock;
import io.fastclock.clock.NativeClocks;
import io.fastclock.clock.RuntimeLog;
import io.fastclock.clock.TscClock;
import io.fastclock.clock.TscEpoch;
import io.fastclock.clock.TscNanos;
import io.fastclock.clock.TscTrust;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongSupplier;

/** Gathers what the doctor prints, once, and renders it as text or as a map for JSON. */
final class DoctorReport {
    /**
     * The JSON report's schema, documented field by field in docs/DOCTOR-JSON.md. Adding a field keeps the
     * version; removing or renaming one, or changing its type or unit, bumps it.
     */
    static final String SCHEMA = "fastclock-doctor/1";
    private static final long ROUND_NANOS = 100_000_000L;
    private static final int ROUNDS = 5;
    /** How long the millis backends are read against the reference, all of them in turn. */
    private static final long LAG_NANOS = 120_000_000L;
    /** The JNI transition alone: a compiled call of a native method that does nothing. */
    static final String JNI_NOOP = "JNI no-op call (the transition alone)";
    static final String COARSE_MILLIS = "coarse millis (JNI CLOCK_REALTIME_COARSE)";
    static final String TSC_NANOS = "tsc nanos";
    static final String TSC_MILLIS = "tsc millis";

    private final MachineProbe probe;
    /** auto's decision with every coarse lag the doctor measured: what the lag table's verdicts agree with. */
    private final Decision auto;
    private final Decision forced;
    private final Map<String, Double> javaCosts;
    private final Map<String, Double> nativeCosts;
    private final TscClock tsc;
    private final String tscStartProblem;
    private final MillisLag millisLag;
    /** For what the agent would do with the JDK's clock reads (jdk, instant). */
    private final Settings settings;

    private DoctorReport(Settings settings, MachineProbe probe, Decision auto, Decision forced, Map<String, Double> javaCosts,
                         Map<String, Double> nativeCosts, TscClock tsc, String tscStartProblem, MillisLag millisLag) {
        this.settings = settings;
        this.probe = probe;
        this.auto = auto;
        this.forced = forced;
        this.javaCosts = javaCosts;
        this.nativeCosts = nativeCosts;
        this.tsc = tsc;
        this.tscStartProblem = tscStartProblem;
        this.millisLag = millisLag;
    }

    /** The measured lag of each millis backend present, with the lag it states. */
    private static final class MillisLag {
        final String reference;
        final List<MillisLagMeter.Result> results;
        final Map<String, Long> statedLagNs;
        /** The worst CLOCK_REALTIME_COARSE was behind: at start-up (the probe's) and in this table, or unknown. */
        final long coarseLagNs;
        /** What a coarse L may grow to (five ticks), or -1. */
        final long capNs;

        MillisLag(String reference, List<MillisLagMeter.Result> results, Map<String, Long> statedLagNs, long coarseLagNs,
                  long capNs) {
            this.reference = reference;
            this.results = results;
            this.statedLagNs = statedLagNs;
            this.coarseLagNs = coarseLagNs;
            this.capNs = capNs;
        }

        /** The coarse backends state the L the agent states from that lag (the decision's own rule). */
        MillisLag statingFrom(Measurements m) {
            Map<String, Long> stated = new LinkedHashMap<>(statedLagNs);
            long res = m.coarseResolutionNs();
            for (String coarse : new String[] {Backend.COARSE.settingName(), Backend.JNA_COARSE.settingName()}) {
                if (stated.containsKey(coarse)) {
                    stated.put(coarse, m.coarseLagNs() == Measurements.UNKNOWN_LAG ? CoarseLag.floorNs(res)
                            : CoarseLag.statedNs(res, m.coarseLagNs()));
                }
            }
            return new MillisLag(reference, results, stated, coarseLagNs, CoarseLag.capNs(res));
        }

        /** Whether the backend's reads kept its L, and L is one that may be stated (within the cap). */
        boolean kept(MillisLagMeter.Result r) {
            long stated = statedLagNs.get(r.backend);
            boolean coarse = !r.backend.equals(Backend.TSC.settingName());
            return r.within(stated) && (!coarse || stated <= capNs);
        }
    }

    static DoctorReport collect(Settings settings) {
        MachineProbe probe = MachineProbe.run(settings, true);

        Map<String, Double> nativeCosts = new LinkedHashMap<>();
        TscClock tsc = null;
        String tscProblem = null;
        if (probe.nativeResult.loaded()) {
            NativeCostMeter meter = new NativeCostMeter(7, 20_000);
            nativeCosts.put("clock_gettime(CLOCK_REALTIME)", meter.nanosPerCall(NativeClocks.CLOCK_REALTIME));
            nativeCosts.put("clock_gettime(CLOCK_MONOTONIC)", meter.nanosPerCall(NativeClocks.CLOCK_MONOTONIC));
            nativeCosts.put("clock_gettime(CLOCK_REALTIME_COARSE)", meter.nanosPerCall(NativeClocks.CLOCK_REALTIME_COARSE));
            nativeCosts.put("clock_gettime(CLOCK_MONOTONIC_COARSE)", meter.nanosPerCall(NativeClocks.CLOCK_MONOTONIC_COARSE));
            nativeCosts.put("gettimeofday", meter.nanosPerCall(NativeClocks.PSEUDO_GETTIMEOFDAY));
            if (NativeClocks.isX86()) {
                for (TscRead r : TscRead.values()) {
                    nativeCosts.put(r.label, meter.nanosPerCall(r.pseudoClockId));
                }
            }
            if (probe.tscChecks != null && probe.tscHealth.calibrated() && probe.tscHealth.crossCpuOk()) {
                tsc = TscClockStarter.start(probe.tscChecks, settings.recheckMs() * 1_000_000L, TscTrust.ALWAYS,
                        RuntimeLog.STDERR);
            } else {
                tscProblem = DecisionMaker.tscBlocker(probe.facts, probe.nativeStatus, probe.tscHealth);
            }
        }

        Map<String, Double> javaCosts = new LinkedHashMap<>();
        javaCosts.put("System.currentTimeMillis()", measure(System::currentTimeMillis));
        javaCosts.put("System.nanoTime()", measure(System::nanoTime));
        if (probe.nativeResult.loaded()) {
            javaCosts.put(JNI_NOOP, measure(NativeClocks::noop));
            CoarseMillis coarseMillis = new CoarseMillis();
            CoarseNanos coarseNanos = new CoarseNanos();
            javaCosts.put(COARSE_MILLIS, measure(coarseMillis::read));
            javaCosts.put("coarse nanos (JNI CLOCK_MONOTONIC_COARSE)", measure(coarseNanos::read));
        }
        if (probe.jna != null && probe.jna.available()) {
            javaCosts.put("jna-coarse millis (JNA CLOCK_REALTIME_COARSE)", measure(probe.jna.clock::read));
        }
        if (tsc != null) {
            TscClock clock = tsc;
            javaCosts.put(TSC_NANOS, measure(clock::nanoTime));
            javaCosts.put(TSC_MILLIS, measure(clock::currentTimeMillis));
        }
        // java.time's system clock, as the JDK has it and as it is once fastclock serves its epoch read.
        javaCosts.put("Instant.now() (the JDK's java.time read)", measure(DoctorReport::instantNanos));
        if (tsc != null) {
            EpochClock epoch = new TscEpoch(tsc, JDK_EPOCH);
            javaCosts.put("Instant.now() with fastclock (tsc epoch read)", measure(() -> instantNanos(epoch)));
        }
        // The same backends through the entry points rewritten code calls: the difference from the
        // rows above is what the dispatch costs once compiled.
        if (probe.nativeResult.loaded()) {
            LongClock nanos = tsc != null ? new TscNanos(tsc) : new CoarseNanos();
            if (ClockRegistry.install(new CoarseMillis(), nanos)) {
                javaCosts.put("FastClock.currentTimeMillis() -> coarse", measure(FastClock::currentTimeMillis));
                javaCosts.put("FastClock.nanoTime() -> " + nanos.name(), measure(FastClock::nanoTime));
            }
        }
        MillisLag lag = measureMillisLag(probe, tsc);
        // The decisions see every coarse lag measured here (start-up's and the table's), so that a
        // backend the table calls BROKEN is one they do not choose.
        Measurements seen = probe.measurements.withCoarseLagNs(lag.coarseLagNs);
        Decision auto = new DecisionMaker().decide(settings, probe.facts, seen, probe.nativeStatus, probe.tscHealth);
        Decision forced = new DecisionMaker().decide(forcedOn(), probe.facts, seen, probe.nativeStatus, probe.tscHealth);
        return new DoctorReport(settings, probe, auto, forced, javaCosts, nativeCosts, tsc, tscProblem,
                lag.statingFrom(seen));
    }

    /**
     * Each millis backend present (coarse and tsc through the JNI library, jna-coarse where JNA
     * loaded) against a nanosecond CLOCK_REALTIME: clock_gettime through the JNI library when it
     * loaded, else Instant.now() (CLOCK_REALTIME as well on JDK 15+).
     */
    private static MillisLag measureMillisLag(MachineProbe probe, TscClock tsc) {
        Map<String, LongSupplier> backends = new LinkedHashMap<>();
        Map<String, Long> stated = new LinkedHashMap<>();
        long res = probe.measurements.coarseResolutionNs();
        if (probe.nativeResult.loaded()) {
            backends.put(Backend.COARSE.settingName(), new CoarseMillis()::read);
            stated.put(Backend.COARSE.settingName(), DecisionMaker.statedMillisLagNs(Backend.COARSE, res));
        }
        if (tsc != null) {
            backends.put(Backend.TSC.settingName(), tsc::currentTimeMillis);
            stated.put(Backend.TSC.settingName(), DecisionMaker.statedMillisLagNs(Backend.TSC, res));
        }
        if (probe.jna != null && probe.jna.available()) {
            backends.put(Backend.JNA_COARSE.settingName(), probe.jna.clock::read);
            stated.put(Backend.JNA_COARSE.settingName(), DecisionMaker.statedMillisLagNs(Backend.JNA_COARSE, res));
        }
        String referenceName;
        LongSupplier reference;
        if (probe.nativeResult.loaded()) {
            referenceName = "clock_gettime(CLOCK_REALTIME) through JNI";
            reference = () -> NativeClocks.clockGettime(NativeClocks.CLOCK_REALTIME);
        } else {
            referenceName = "Instant.now()";
            reference = DoctorReport::instantNanos;
        }
        List<MillisLagMeter.Result> results = backends.isEmpty() ? Collections.<MillisLagMeter.Result>emptyList()
                : MillisLagMeter.measure(backends, reference, System::nanoTime, LAG_NANOS);
        long coarseLag = probe.measurements.coarseLagNs();
        for (MillisLagMeter.Result r : results) {
            if (!r.backend.equals(Backend.TSC.settingName()) && r.reads > 0) {
                coarseLag = coarseLag == Measurements.UNKNOWN_LAG ? r.worstBehindNs : Math.max(coarseLag, r.worstBehindNs);
            }
        }
        return new MillisLag(referenceName, results, stated, coarseLag, CoarseLag.capNs(res));
    }

    private static long instantNanos() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }

    /** What Clock.currentInstant() computes, with its getNanoTimeAdjustment served by {@code epoch}. */
    private static final long INSTANT_OFFSET_SECONDS = System.currentTimeMillis() / 1000 - 1024;

    private static long instantNanos(EpochClock epoch) {
        Instant now = Instant.ofEpochSecond(INSTANT_OFFSET_SECONDS, epoch.nanoTimeAdjustment(INSTANT_OFFSET_SECONDS));
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }

    /** The JDK's read, for the doctor's TscEpoch after a fallback (the doctor has no VM access). */
    private static final EpochClock JDK_EPOCH = new EpochClock() {
        @Override
        public long nanoTimeAdjustment(long offsetSeconds) {
            Instant now = Instant.now();
            return (now.getEpochSecond() - offsetSeconds) * 1_000_000_000L + now.getNano();
        }

        @Override
        public String name() {
            return BackendNames.SYSTEM;
        }
    };

    private static Settings forcedOn() {
        Map<String, String> props = new LinkedHashMap<>();
        for (String name : System.getProperties().stringPropertyNames()) {
            props.put(name, System.getProperty(name));
        }
        props.remove("fastclock.mode");
        try {
            return Settings.parse("mode=on", props, System.getenv());
        } catch (RuntimeException e) {
            return Settings.parse("mode=on", (Map<String, String>) null);
        }
    }

    private static double measure(LongSupplier clock) {
        return JavaCostMeter.nanosPerCall(clock, ROUND_NANOS, ROUNDS);
    }

    // ---- rendering ------------------------------------------------------------------------------

    String toText() {
        MachineFacts f = probe.facts;
        StringBuilder out = new StringBuilder();
        out.append("fastclock doctor: what this machine's clocks cost and what the agent would do\n\n");
        out.append("Machine\n");
        line(out, "kernel", f.kernel());
        line(out, "arch", f.arch());
        line(out, "clocksource", f.clocksourceForDisplay() + " (available: "
                + (f.availableClocksourcesKnown() ? String.join(" ", f.availableClocksources()) : "unknown") + ")");
        line(out, "known slow", f.clocksourceKnownSlow() ? "yes: fine clock reads are syscalls and hardware accesses" : "no");
        line(out, "CPU TSC flags", tscFlags(f));
        line(out, "native library", probe.nativeResult.loaded() ? "loaded (" + probe.nativeResult.how + ")"
                : "not loaded: " + probe.nativeResult.problem);
        if (probe.extractionNotice != null) {
            line(out, "extracted to", probe.extractionNotice);
        }
        line(out, "JNA (fallback)", jnaLine());
        if (probe.nativeResult.loaded()) {
            line(out, "CPUID", cpuid());
            line(out, "coarse resolution", "CLOCK_REALTIME_COARSE " + ms(NativeClocks.clockGetres(NativeClocks.CLOCK_REALTIME_COARSE))
                    + ", CLOCK_MONOTONIC_COARSE " + ms(NativeClocks.clockGetres(NativeClocks.CLOCK_MONOTONIC_COARSE))
                    + " (one kernel tick)");
        }
        for (String problem : f.problems()) {
            line(out, "could not read", problem);
        }
        out.append("\nTSC checks\n");
        if (probe.tscChecks == null) {
            line(out, "not run", probe.nativeResult.loaded() ? "not an x86_64 CPU" : "needs the native library");
        } else {
            line(out, "cross-CPU", probe.tscChecks.crossCpuOk()
                    ? "passed: " + probe.tscChecks.crossCpuCpus + " CPUs, " + probe.tscChecks.crossCpuReads
                      + " interleaved reads, never backwards"
                    : "FAILED: " + probe.tscChecks.crossCpuProblem);
            if (probe.tscChecks.calibration == null) {
                line(out, "calibration", "not run");
            } else if (probe.tscChecks.calibration.converged) {
                line(out, "calibration", String.format(Locale.ROOT,
                        "converged in %.1f ms: %.4f GHz (%.4f ns/tick), halves agree within %.1f ppm",
                        probe.tscChecks.calibration.elapsedNanos / 1e6, 1 / probe.tscChecks.calibration.nanosPerTick,
                        probe.tscChecks.calibration.nanosPerTick, probe.tscChecks.calibration.disagreementPpm));
            } else {
                line(out, "calibration", "FAILED: " + probe.tscChecks.calibration.problem);
            }
        }
        if (probe.tscChecks != null) {
            TscReadChoice reads = probe.tscChecks.reads;
            line(out, "TSC reads", "nanoTime: " + reads.nanos.label + ", the cheapest ordered read offered here ("
                    + readCosts(reads) + "); currentTimeMillis: " + reads.millis.label
                    + String.format(Locale.ROOT, " %.1f ns", reads.cost(reads.millis)));
            for (Map.Entry<TscRead, String> e : reads.notOffered.entrySet()) {
                line(out, "", "not offered: " + e.getKey().label + ": " + e.getValue());
            }
            line(out, "LFENCE", lfenceLine(NativeClocks.tscFlags()));
        }
        List<String> tscBlockers = DecisionMaker.tscStaticBlockers(probe.facts, probe.nativeStatus);
        if (!tscBlockers.isEmpty()) {
            line(out, "TSC not used", "by the agent, for " + (tscBlockers.size() == 1 ? "this reason:" : "each of these reasons:"));
            for (String why : tscBlockers) {
                line(out, "", why);
            }
        }
        if (tsc != null) {
            line(out, "TSC clock", String.format(Locale.ROOT, "running%s; after %d re-anchors it is %.1f us from CLOCK_MONOTONIC",
                    tscBlockers.isEmpty() ? "" : " (for the measurements below only)", tsc.reanchors(), tsc.lastErrorNanos() / 1e3));
        } else if (tscBlockers.isEmpty() && tscStartProblem != null) {
            line(out, "TSC clock", "not usable: " + tscStartProblem);
        }

        out.append("\nCost per call, ns (JIT-compiled Java, best of ").append(ROUNDS).append(" rounds of ")
                .append(ROUND_NANOS / 1_000_000).append(" ms;\n  auto compares costs timed this way, in a few ms at start-up)\n");
        for (Map.Entry<String, Double> e : javaCosts.entrySet()) {
            out.append(String.format(Locale.ROOT, "  %-44s %8.1f%n", e.getKey(), e.getValue()));
        }
        if (!nativeCosts.isEmpty()) {
            out.append("\nCost per call, ns, timed in C (how the agent judges whether the system clocks are slow)\n");
            for (Map.Entry<String, Double> e : nativeCosts.entrySet()) {
                out.append(String.format(Locale.ROOT, "  %-44s %8.1f%n", e.getKey(), e.getValue()));
            }
        }

        limitText(out);

        millisLagText(out);

        out.append("\nWhat -javaagent:fastclock.jar would do here\n");
        decision(out, "auto (the default)", auto);
        decision(out, "mode=on (forced)", forced);
        return out.toString();
    }

    /** Each read through JNI against what JNI allows: the transition (a no-op call) plus the read in C. */
    private void limitText(StringBuilder out) {
        Map<String, Double> limits = limits();
        if (limits.isEmpty()) {
            return;
        }
        out.append("\nAgainst the limit: ns per call, and the LIMIT = the JNI transition (no-op call, ")
                .append(String.format(Locale.ROOT, "%.1f ns", javaCosts.get(JNI_NOOP)))
                .append(") + the read timed in C\n");
        out.append(String.format(Locale.ROOT, "  %-44s %8s %8s %8s  %s%n", "clock", "cost", "LIMIT", "over", "read"));
        for (Map.Entry<String, Double> e : limits.entrySet()) {
            double cost = javaCosts.get(e.getKey());
            out.append(String.format(Locale.ROOT, "  %-44s %8.1f %8.1f %7.0f%%  %s%n", e.getKey(), cost, e.getValue(),
                    (cost / e.getValue() - 1) * 100, limitRead(e.getKey())));
        }
    }

    private String limitRead(String clock) {
        switch (clock) {
            case TSC_NANOS:
                return probe.tscChecks.reads.nanos.label;
            case TSC_MILLIS:
                return probe.tscChecks.reads.millis.label;
            default:
                return "clock_gettime(CLOCK_REALTIME_COARSE)";
        }
    }

    /** LIMIT per fastclock row that has one: JNI no-op + the C cost of the read the row makes. */
    Map<String, Double> limits() {
        Map<String, Double> limits = new LinkedHashMap<>();
        Double jni = javaCosts.get(JNI_NOOP);
        if (jni == null) {
            return limits;
        }
        Double coarse = nativeCosts.get("clock_gettime(CLOCK_REALTIME_COARSE)");
        if (coarse != null && javaCosts.containsKey(COARSE_MILLIS)) {
            limits.put(COARSE_MILLIS, jni + coarse);
        }
        if (tsc != null && probe.tscChecks != null) {
            limits.put(TSC_NANOS, jni + nativeCosts.get(probe.tscChecks.reads.nanos.label));
            limits.put(TSC_MILLIS, jni + nativeCosts.get(probe.tscChecks.reads.millis.label));
        }
        return limits;
    }

    private static String readCosts(TscReadChoice reads) {
        List<String> parts = new ArrayList<>();
        for (Map.Entry<TscRead, Double> e : reads.costNanos.entrySet()) {
            if (e.getKey().ordered) {
                parts.add(String.format(Locale.ROOT, "%s %.1f ns", e.getKey().label, e.getValue()));
            }
        }
        return "timed in C: " + String.join(", ", parts);
    }

    /** What can be known about LFENCE from inside this process (a VM sees the CPUID its hypervisor shows). */
    static String lfenceLine(int flags) {
        if ((flags & NativeClocks.CPU_INTEL) != 0) {
            return "Intel: LFENCE waits for all earlier instructions (architectural)";
        }
        if ((flags & NativeClocks.CPU_AMD) != 0) {
            return (flags & NativeClocks.LFENCE_SERIALIZING) != 0
                    ? "AMD: CPUID 8000_0021 EAX[2] says LFENCE is always serialising"
                    : "AMD: CPUID 8000_0021 EAX[2] not set; MSR C001_1029[1] (set by most kernels) cannot be read from"
                      + " user space, so lfence; rdtsc is not used";
        }
        return "unknown CPU vendor: rdtscp where offered, else lfence; rdtsc (as before this choice existed)";
    }

    private void millisLagText(StringBuilder out) {
        if (millisLag.results.isEmpty()) {
            return;
        }
        out.append("\nMillis lag against CLOCK_REALTIME (").append(millisLag.reference).append(" before and after each read; ")
                .append(LAG_NANOS / 1_000_000).append(" ms of interleaved reads)\n");
        out.append("  A value b stands for the millisecond [b, b+1): behind = reference - (b+1) ms, ahead = b ms - reference;\n"
                + "  0 or less is never. The contract: behind at most the stated lag L, ahead at most 1 ms.\n"
                + "  A coarse clock's L is what the agent states from the lag measured (at start-up, and here): the\n"
                + "  worst plus a tick, at least two ticks. While running it is restated up to ")
                .append(millisLag.capNs < 0 ? "five ticks" : DecisionMaker.msText(millisLag.capNs) + " (five ticks)")
                .append(",\n  beyond which currentTimeMillis goes back to the system clock.\n");
        out.append(String.format(Locale.ROOT, "  %-12s %9s %14s %14s %14s  %s%n", "backend", "reads", "worst behind", "stated lag L",
                "worst ahead", "contract"));
        for (MillisLagMeter.Result r : millisLag.results) {
            long stated = millisLag.statedLagNs.get(r.backend);
            String verdict = r.reads == 0 ? "no reads" : stated < 0 ? "no lag stated (coarse resolution unknown or too coarse)"
                    : millisLag.kept(r) ? "kept"
                    : r.worstAheadNs > MillisLagMeter.AHEAD_BOUND_NS ? "BROKEN: ahead by more than 1 ms"
                    : r.worstBehindNs > stated ? "BROKEN: behind by more than the stated lag"
                    : "BROKEN: its lag is over the " + msPrecise(millisLag.capNs) + " a coarse clock may state; auto does not use it";
            out.append(String.format(Locale.ROOT, "  %-12s %9d %14s %14s %14s  %s%n", r.backend, r.reads,
                    r.reads == 0 ? "-" : msPrecise(r.worstBehindNs), stated < 0 ? "unknown" : msPrecise(stated),
                    r.reads == 0 ? "-" : msPrecise(r.worstAheadNs), verdict));
        }
    }

    /** "4.702 ms", "-17.3 us", "-37 ns": µs precision, in the unit that fits. */
    private static String msPrecise(long nanos) {
        long abs = Math.abs(nanos);
        if (abs >= 1_000_000L) {
            return String.format(Locale.ROOT, "%.3f ms", nanos / 1e6);
        }
        if (abs >= 1_000L) {
            return String.format(Locale.ROOT, "%.1f us", nanos / 1e3);
        }
        return nanos + " ns";
    }

    private String jnaLine() {
        if (probe.jna == null) {
            return "not looked at: " + probe.nativeStatus.jnaProblem();
        }
        if (!probe.jna.available()) {
            return "not usable: " + probe.jna.problem;
        }
        return String.format(Locale.ROOT, "loaded privately in %.1f ms (nested jar, own class loader, stub from a private"
                + " directory); CLOCK_REALTIME_COARSE through it %.0f ns a call as first measured",
                probe.jna.elapsedNanos / 1e6, probe.measurements.jnaCoarseNs());
    }

    private JavaTimeCoverage javaTime(Decision d) {
        return JavaTimeCoverage.of(d, settings, probe.measurements.coarseResolutionNs());
    }

    private void decision(StringBuilder out, String title, Decision d) {
        out.append("  ").append(title).append(": ").append(d.active() ? "ACTIVE" : "inactive").append('\n');
        out.append("    currentTimeMillis -> ").append(d.millis().backend().settingName()).append(": ")
                .append(d.millis().reason()).append('\n');
        out.append("    nanoTime          -> ").append(d.nanos().backend().settingName()).append(": ")
                .append(d.nanos().reason()).append('\n');
        if (d.active()) {
            out.append("    JDK clock reads   -> ").append(javaTime(d).account()).append('\n');
        }
        for (String w : d.warnings()) {
            out.append("    warning: ").append(w).append('\n');
        }
    }

    private static void line(StringBuilder out, String key, String value) {
        out.append(String.format(Locale.ROOT, "  %-18s %s%n", key, value));
    }

    private static final String[] TSC_FLAGS = {"tsc", "constant_tsc", "nonstop_tsc", "rdtscp", "tsc_known_freq", "tsc_reliable"};

    private static String tscFlags(MachineFacts f) {
        List<String> flags = new ArrayList<>();
        for (String flag : TSC_FLAGS) {
            flags.add((f.hasFlag(flag) ? "" : "no ") + flag);
        }
        return String.join(", ", flags);
    }

    private static String cpuid() {
        if (!NativeClocks.isX86()) {
            return "not x86";
        }
        int flags = NativeClocks.tscFlags();
        return ((flags & NativeClocks.TSC_INVARIANT) != 0 ? "invariant TSC" : "TSC NOT invariant")
                + ((flags & NativeClocks.TSC_RDTSCP) != 0 ? ", rdtscp" : ", no rdtscp")
                + ((flags & NativeClocks.TSC_HYPERVISOR) != 0 ? ", running under a hypervisor" : "");
    }

    private static String ms(long nanos) {
        return nanos < 0 ? "unknown" : String.format(Locale.ROOT, "%.3g ms", nanos / 1e6);
    }

    Map<String, Object> toMap() {
        MachineFacts f = probe.facts;
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("schema", SCHEMA);
        Map<String, Object> machine = new LinkedHashMap<>();
        machine.put("kernel", f.kernel());
        machine.put("arch", f.arch());
        machine.put("currentClocksource", f.currentClocksource());
        machine.put("availableClocksources", new ArrayList<>(f.availableClocksources()));
        machine.put("clocksourceKnownSlow", f.clocksourceKnownSlow());
        machine.put("cpuFlags", tscFlagList(f));
        machine.put("problems", new ArrayList<>(f.problems()));
        root.put("machine", machine);

        Map<String, Object> nat = new LinkedHashMap<>();
        nat.put("loaded", probe.nativeResult.loaded());
        nat.put("problem", probe.nativeResult.problem);
        if (probe.nativeResult.loaded()) {
            nat.put("realtimeCoarseResolutionNs", NativeClocks.clockGetres(NativeClocks.CLOCK_REALTIME_COARSE));
            nat.put("monotonicCoarseResolutionNs", NativeClocks.clockGetres(NativeClocks.CLOCK_MONOTONIC_COARSE));
            nat.put("cpuid", cpuid());
        }
        root.put("native", nat);

        Map<String, Object> jnaMap = new LinkedHashMap<>();
        jnaMap.put("available", probe.nativeStatus.jnaAvailable());
        jnaMap.put("problem", probe.nativeStatus.jnaProblem());
        if (probe.jna != null) {
            jnaMap.put("loadMs", probe.jna.elapsedNanos / 1e6);
        }
        root.put("jna", jnaMap);

        Map<String, Object> tscMap = new LinkedHashMap<>();
        tscMap.put("checked", probe.tscChecks != null);
        if (probe.tscChecks != null) {
            tscMap.put("crossCpuOk", probe.tscChecks.crossCpuOk());
            tscMap.put("crossCpuProblem", probe.tscChecks.crossCpuProblem);
            tscMap.put("crossCpuCpus", probe.tscChecks.crossCpuCpus);
            tscMap.put("crossCpuReads", probe.tscChecks.crossCpuReads);
            if (probe.tscChecks.calibration != null) {
                tscMap.put("calibrationConverged", probe.tscChecks.calibration.converged);
                tscMap.put("calibrationProblem", probe.tscChecks.calibration.problem);
                tscMap.put("nanosPerTick", probe.tscChecks.calibration.nanosPerTick);
                tscMap.put("calibrationMs", probe.tscChecks.calibration.elapsedNanos / 1e6);
            }
        }
        tscMap.put("usableProblem", tscStartProblem);
        tscMap.put("staticProblems", new ArrayList<Object>(DecisionMaker.tscStaticBlockers(probe.facts, probe.nativeStatus)));
        root.put("tsc", tscMap);

        root.put("javaNanosPerCall", new LinkedHashMap<String, Object>(javaCosts));
        root.put("nativeNanosPerCall", new LinkedHashMap<String, Object>(nativeCosts));
        root.put("limitNanosPerCall", new LinkedHashMap<String, Object>(limits()));
        if (probe.tscChecks != null) {
            Map<String, Object> reads = new LinkedHashMap<>();
            reads.put("nanos", probe.tscChecks.reads.nanos.label);
            reads.put("millis", probe.tscChecks.reads.millis.label);
            Map<String, Object> costs = new LinkedHashMap<>();
            for (Map.Entry<TscRead, Double> e : probe.tscChecks.reads.costNanos.entrySet()) {
                costs.put(e.getKey().label, e.getValue());
            }
            reads.put("costNanos", costs);
            reads.put("lfence", lfenceLine(NativeClocks.tscFlags()));
            root.put("tscReads", reads);
        }
        root.put("millisLag", millisLagMap());
        root.put("auto", decisionMap(auto));
        root.put("forcedOn", decisionMap(forced));
        return root;
    }

    private Map<String, Object> millisLagMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("reference", millisLag.reference);
        m.put("durationMs", LAG_NANOS / 1_000_000);
        m.put("aheadBoundNs", MillisLagMeter.AHEAD_BOUND_NS);
        Map<String, Object> backends = new LinkedHashMap<>();
        for (MillisLagMeter.Result r : millisLag.results) {
            long stated = millisLag.statedLagNs.get(r.backend);
            Map<String, Object> b = new LinkedHashMap<>();
            b.put("reads", r.reads);
            b.put("worstBehindNs", r.reads == 0 ? null : r.worstBehindNs);
            b.put("statedLagNs", stated < 0 ? null : stated);
            b.put("worstAheadNs", r.reads == 0 ? null : r.worstAheadNs);
            b.put("withinContract", stated < 0 ? null : millisLag.kept(r));
            backends.put(r.backend, b);
        }
        m.put("backends", backends);
        return m;
    }

    private static List<String> tscFlagList(MachineFacts f) {
        List<String> flags = new ArrayList<>();
        for (String flag : TSC_FLAGS) {
            if (f.hasFlag(flag)) {
                flags.add(flag);
            }
        }
        return flags;
    }

    private Map<String, Object> decisionMap(Decision d) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("active", d.active());
        m.put("summary", d.summary());
        m.put("millis", choiceMap(d.millis()));
        m.put("nanos", choiceMap(d.nanos()));
        m.put("warnings", new ArrayList<>(d.warnings()));
        JavaTimeCoverage javaTime = javaTime(d);
        Map<String, Object> jt = new LinkedHashMap<>();
        jt.put("epoch", d.active() ? javaTime.epochBackend() : "jdk");
        jt.put("millisReads", d.active() ? javaTime.millisReadsBackend() : "jdk");
        jt.put("reason", d.active() ? javaTime.account() : "fastclock would be inactive: no JDK class changed");
        m.put("javaTime", jt);
        return m;
    }

    private static Map<String, Object> choiceMap(Choice c) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("backend", c.backend().settingName());
        m.put("reason", c.reason());
        m.put("lagNs", c.lagNs());
        return m;
    }
}
