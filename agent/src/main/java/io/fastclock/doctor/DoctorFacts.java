package io.fastclock.doctor;

import io.fastclock.boot.ClockRegistry;
import io.fastclock.boot.InstalledClocks;
import io.fastclock.clock.CoarseMillis;
import io.fastclock.clock.CoarseNanos;
import io.fastclock.clock.NativeClocks;
import io.fastclock.clock.RuntimeLog;
import io.fastclock.clock.TscClock;
import io.fastclock.clock.TscEpoch;
import io.fastclock.clock.TscNanos;
import io.fastclock.clock.TscTrust;
import io.fastclock.config.Backend;
import io.fastclock.config.BackendNames;
import io.fastclock.config.Settings;
import io.fastclock.decide.CoarseLag;
import io.fastclock.decide.Decision;
import io.fastclock.decide.DecisionMaker;
import io.fastclock.decide.JavaTimeCoverage;
import io.fastclock.decide.TscRules;
import io.fastclock.decide.WorthMeasuring;
import io.fastclock.measure.JavaCostMeter;
import io.fastclock.measure.MillisLagMeter;
import io.fastclock.measure.NativeCostMeter;
import io.fastclock.measure.TscRead;
import io.fastclock.probe.MachineProbe;
import io.fastclock.probe.Measurements;
import io.fastclock.probe.TscClockStarter;
import io.fastclock.runtime.EpochClock;
import io.fastclock.runtime.FastClock;
import io.fastclock.runtime.NanosClock;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * What the doctor reports, gathered once: the probe's facts, the costs and lags it measured, the
 * decisions they lead to, and the few readings of the native library both renderings show.
 * {@link DoctorText} and {@link DoctorJson} only render it; neither measures or reads anything.
 */
public final class DoctorFacts {
    /** Each row: a warm-up and then the best of ROUNDS rounds this long (millions of calls each at tens of ns). */
    static final long ROUND_NANOS = 40_000_000L;
    static final int ROUNDS = 5;
    /** How long the millis backends are read against the reference, all of them in turn. */
    static final long LAG_NANOS = 120_000_000L;
    /** The JNI transition alone: a compiled call of a native method that does nothing. */
    static final String JNI_NOOP = "JNI no-op call (the transition alone)";
    static final String COARSE_MILLIS = "coarse millis (JNI CLOCK_REALTIME_COARSE)";
    static final String COARSE_NANOS = "coarse nanos (JNI CLOCK_MONOTONIC_COARSE)";
    static final String TSC_NANOS = "tsc nanos";
    static final String TSC_MILLIS = "tsc millis";
    /** What auto times for each TSC clock: the read it uses, through JNI (the clock's arithmetic adds a few ns). */
    static final String TSC_NANOS_READ = "nanoTime's TSC read via JNI (ordered)";
    static final String TSC_MILLIS_READ = "currentTimeMillis's TSC read via JNI (rdtsc)";

    /** The TSC flags the doctor shows, in this order: present in text and JSON, absent in text as "no ...". */
    static final String[] TSC_FLAGS = {"tsc", "constant_tsc", "nonstop_tsc", "rdtscp", "tsc_known_freq", "tsc_reliable"};

    final MachineProbe probe;
    /** auto's decision with every coarse lag the doctor measured: what the lag table's verdicts agree with. */
    final Decision auto;
    final Decision forced;
    /** What the agent would do with the JDK's clock reads (jdk, instant) under each decision. */
    final JavaTimeCoverage autoJavaTime;
    final JavaTimeCoverage forcedJavaTime;
    final Map<String, Double> javaCosts;
    final Map<String, Double> nativeCosts;
    /** Whether the doctor ran a TSC clock for its measurements. */
    final boolean tscRunning;
    /** The TSC clock's re-anchors and last error once the measurements were done (when it ran). */
    final long tscReanchors;
    final long tscLastErrorNanos;
    final String tscStartProblem;
    /** Why the agent would not use the TSC here, whatever was measured (empty: nothing stands in its way). */
    final List<String> tscStaticBlockers;
    final MillisLag millisLag;
    /** Read through the native library when it loaded (else -1 and 0). */
    final long realtimeCoarseResolutionNs;
    final long monotonicCoarseResolutionNs;
    final boolean x86;
    /** NativeClocks.tscFlags() on x86 (CPUID: vendor, invariant TSC, rdtscp, hypervisor, LFENCE). */
    final int cpuFlags;

    /**
     * The compiled costs auto measured at start-up, by the table's row names: what the verdicts quote,
     * beside the table's longer measurement of the same reads (the TSC's raw read has no row of its own).
     */
    Map<String, Double> startupCosts() {
        Measurements m = probe.measurements;
        Map<String, Double> costs = new LinkedHashMap<>();
        costs.put("System.currentTimeMillis()", m.compiledRealtimeNs());
        costs.put("System.nanoTime()", m.compiledMonotonicNs());
        if (probe.nativeResult.loaded()) {
            costs.put(COARSE_MILLIS, m.realtimeCoarseNs());
            costs.put(COARSE_NANOS, m.monotonicCoarseNs());
        }
        if (!Double.isNaN(m.tscNs())) {
            costs.put(TSC_NANOS_READ, m.tscNs());
            costs.put(TSC_MILLIS_READ, m.tscMillisNs());
        }
        return costs;
    }

    private DoctorFacts(Settings settings, MachineProbe probe, Decision auto, Decision forced, Map<String, Double> javaCosts,
                        Map<String, Double> nativeCosts, TscClock tsc, String tscStartProblem, MillisLag millisLag) {
        this.probe = probe;
        this.auto = auto;
        this.forced = forced;
        long res = probe.measurements.coarseResolutionNs();
        this.autoJavaTime = JavaTimeCoverage.of(auto, settings, res);
        this.forcedJavaTime = JavaTimeCoverage.of(forced, settings, res);
        this.javaCosts = Collections.unmodifiableMap(javaCosts);
        this.nativeCosts = Collections.unmodifiableMap(nativeCosts);
        this.tscRunning = tsc != null;
        this.tscReanchors = tsc == null ? 0 : tsc.reanchors();
        this.tscLastErrorNanos = tsc == null ? 0 : tsc.lastErrorNanos();
        this.tscStartProblem = tscStartProblem;
        this.tscStaticBlockers = TscRules.staticBlockers(probe.facts, probe.nativeStatus);
        this.millisLag = millisLag;
        boolean loaded = probe.nativeResult.loaded();
        this.realtimeCoarseResolutionNs = loaded ? NativeClocks.clockGetres(NativeClocks.CLOCK_REALTIME_COARSE) : -1;
        this.monotonicCoarseResolutionNs = loaded ? NativeClocks.clockGetres(NativeClocks.CLOCK_MONOTONIC_COARSE) : -1;
        this.x86 = loaded && NativeClocks.isX86();
        this.cpuFlags = x86 ? NativeClocks.tscFlags() : 0;
    }

    /** The measured lag of each millis backend present, with the lag it states. */
    static final class MillisLag {
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

    /** Probes the machine and measures what the doctor reports: takes a second or two. */
    public static DoctorFacts collect(Settings settings) {
        MachineProbe probe = MachineProbe.run(settings, true, new WorthMeasuring(settings));

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
                tscProblem = TscRules.blocker(probe.facts, probe.nativeStatus, probe.tscHealth);
            }
        }

        Map<String, Double> javaCosts = new LinkedHashMap<>();
        javaCosts.put("System.currentTimeMillis()", measure(System::currentTimeMillis));
        javaCosts.put("System.nanoTime()", measure(System::nanoTime));
        if (probe.nativeResult.loaded()) {
            javaCosts.put(JNI_NOOP, measure(NativeClocks::noop));
            CoarseMillis coarseMillis = new CoarseMillis();
            CoarseNanos coarseNanos = new CoarseNanos();
            javaCosts.put(COARSE_MILLIS, measure(coarseMillis::currentTimeMillis));
            javaCosts.put(COARSE_NANOS, measure(coarseNanos::nanoTime));
        }
        if (probe.jna != null && probe.jna.available()) {
            javaCosts.put("jna-coarse millis (JNA CLOCK_REALTIME_COARSE)", measure(probe.jna.clock::currentTimeMillis));
        }
        if (tsc != null) {
            TscClock clock = tsc;
            javaCosts.put(TSC_NANOS, measure(clock::nanoTime));
            javaCosts.put(TSC_MILLIS, measure(clock::currentTimeMillis));
        }
        // java.time's system clock, as the JDK has it and as it is once fastclock serves its epoch read.
        // In a JVM where fastclock runs as an agent too, the JDK's classes may already be that agent's.
        String epochHere = FastClock.class.getModule().isNamed() ? FastClock.epochBackend() : null;
        javaCosts.put(epochHere == null || BackendNames.SYSTEM.equals(epochHere) ? "Instant.now() (the JDK's java.time read)"
                : "Instant.now() (this JVM's fastclock agent serves it: " + epochHere + ")", measure(DoctorFacts::instantNanos));
        if (tsc != null) {
            EpochClock epoch = new TscEpoch(tsc, JDK_EPOCH);
            javaCosts.put("Instant.now() with fastclock (tsc epoch read)", measure(() -> instantNanos(epoch)));
        }
        // The same backends where a switched FastClock calls them: the difference from the rows above is
        // what the dispatch costs once compiled. Only with the command line's own copy of the runtime: in
        // a JVM where fastclock runs too, the runtime and its backends are that agent's.
        if (probe.nativeResult.loaded() && !FastClock.class.getModule().isNamed()) {
            NanosClock nanos = tsc != null ? new TscNanos(tsc) : new CoarseNanos();
            if (ClockRegistry.install(new CoarseMillis(), nanos, null)) {
                javaCosts.put("FastClock.currentTimeMillis() -> coarse", measure(InstalledClocks::currentTimeMillis));
                javaCosts.put("FastClock.nanoTime() -> " + nanos.name(), measure(InstalledClocks::nanoTime));
            }
        }
        MillisLag lag = measureMillisLag(probe, tsc);
        // The decisions see every coarse lag measured here (start-up's and the table's), so that a
        // backend the table calls BROKEN is one they do not choose.
        Measurements seen = probe.measurements.withCoarseLagNs(lag.coarseLagNs);
        Decision auto = new DecisionMaker().decide(settings, probe.facts, seen, probe.nativeStatusFor(settings), probe.tscHealth);
        Settings on = forcedOn();
        Decision forced = new DecisionMaker().decide(on, probe.facts, seen, probe.nativeStatusFor(on), probe.tscHealth);
        return new DoctorFacts(settings, probe, auto, forced, javaCosts, nativeCosts, tsc, tscProblem,
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
            backends.put(Backend.COARSE.settingName(), new CoarseMillis()::currentTimeMillis);
            stated.put(Backend.COARSE.settingName(), DecisionMaker.statedMillisLagNs(Backend.COARSE, res));
        }
        if (tsc != null) {
            backends.put(Backend.TSC.settingName(), tsc::currentTimeMillis);
            stated.put(Backend.TSC.settingName(), DecisionMaker.statedMillisLagNs(Backend.TSC, res));
        }
        if (probe.jna != null && probe.jna.available()) {
            backends.put(Backend.JNA_COARSE.settingName(), probe.jna.clock::currentTimeMillis);
            stated.put(Backend.JNA_COARSE.settingName(), DecisionMaker.statedMillisLagNs(Backend.JNA_COARSE, res));
        }
        String referenceName;
        LongSupplier reference;
        if (probe.nativeResult.loaded()) {
            referenceName = "clock_gettime(CLOCK_REALTIME) through JNI";
            reference = () -> NativeClocks.clockGettime(NativeClocks.CLOCK_REALTIME);
        } else {
            referenceName = "Instant.now()";
            reference = DoctorFacts::instantNanos;
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
        Map<String, String> props = new LinkedHashMap<>(LaunchProperties.forTheDoctor());
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
        if (tscRunning && probe.tscChecks != null) {
            limits.put(TSC_NANOS, jni + nativeCosts.get(probe.tscChecks.reads.nanos.label));
            limits.put(TSC_MILLIS, jni + nativeCosts.get(probe.tscChecks.reads.millis.label));
        }
        return limits;
    }

    /** What CPUID says of the TSC: "invariant TSC, rdtscp, running under a hypervisor", or "not x86". */
    String cpuid() {
        if (!x86) {
            return "not x86";
        }
        return ((cpuFlags & NativeClocks.TSC_INVARIANT) != 0 ? "invariant TSC" : "TSC NOT invariant")
                + ((cpuFlags & NativeClocks.TSC_RDTSCP) != 0 ? ", rdtscp" : ", no rdtscp")
                + ((cpuFlags & NativeClocks.TSC_HYPERVISOR) != 0 ? ", running under a hypervisor" : "");
    }

    /** What can be known about LFENCE from inside this process (a VM sees the CPUID its hypervisor shows). */
    String lfence() {
        return lfenceLine(cpuFlags);
    }

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
}
