package io.fastclock.probe;

import io.fastclock.config.BackendNames;
import io.fastclock.config.Settings;
import io.fastclock.measure.CompiledCostMeter;
import io.fastclock.measure.MillisLagMeter;
import io.fastclock.measure.NativeCostMeter;
import io.fastclock.measure.TscChecks;
import io.fastclock.measure.TscRead;
import io.fastclock.measure.TscReadChoice;
import io.fastclock.nativelib.ExtractionRoot;
import io.fastclock.nativelib.JnaLoader;
import io.fastclock.nativelib.NativeLibraryExtractor;
import io.fastclock.nativelib.NativeLibraryLoader;
import io.fastclock.runtime.MillisClock;
import io.fastclock.clock.NativeClocks;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Everything the agent and the doctor learn about this machine before deciding: the files
 * (clocksources, CPU flags), the native library, what each clock costs (timed in C, and, where a
 * replacement could be chosen, from compiled Java), how far the coarse clock lags CLOCK_REALTIME,
 * and, when the TSC could be chosen, the TSC checks. What can be chosen is the {@link MeasuringPlan}'s
 * to say; the decision is made above, from what is measured here (decide.ProbedDecision).
 */
public final class MachineProbe {
    public final Settings settings;
    public final MachineReader reader;
    public final MachineFacts facts;
    public final NativeLibraryLoader.Result nativeResult;
    /**
     * The line saying java.io.tmpdir was not safe for the native code and where it went instead, or
     * null (see {@link ExtractionRoot}).
     */
    public final String extractionNotice;
    /** Null when JNA was not looked at (the JNI library loaded and jna-coarse was not named). */
    public final JnaLoader.Result jna;
    public final NativeStatus nativeStatus;
    public final Measurements measurements;
    /** Null when the TSC checks were not worth running. */
    public final TscChecks tscChecks;
    public final TscHealth tscHealth;
    public final long elapsedNanos;
    /** What timing the clocks from compiled Java and measuring the coarse lag took (0 when not done). */
    public final long compiledCostNanos;
    public final long coarseLagNanos;
    /**
     * Why a measurement the decision needed could not finish because the CPUs were busy, or null: then
     * "unmeasured" is not "slower", and the agent measures again later (decide.ProbedDecision).
     */
    public final String busyReason;

    private MachineProbe(Settings settings, MachineReader reader, MachineFacts facts, NativeLibraryLoader.Result nativeResult,
            String extractionNotice, JnaLoader.Result jna, NativeStatus nativeStatus, Measurements measurements, TscChecks tscChecks, TscHealth tscHealth,
            long elapsedNanos, long compiledCostNanos, long coarseLagNanos, String busyReason) {
        this.settings = settings;
        this.reader = reader;
        this.facts = facts;
        this.nativeResult = nativeResult;
        this.extractionNotice = extractionNotice;
        this.jna = jna;
        this.nativeStatus = nativeStatus;
        this.measurements = measurements;
        this.tscChecks = tscChecks;
        this.tscHealth = tscHealth;
        this.elapsedNanos = elapsedNanos;
        this.compiledCostNanos = compiledCostNanos;
        this.coarseLagNanos = coarseLagNanos;
        this.busyReason = busyReason;
    }

    /**
     * @param alwaysCheckTsc run the TSC checks, and load JNA, even where the decision cannot use them (the doctor)
     * @param plan which measurements can change the decision
     */
    public static MachineProbe run(Settings settings, boolean alwaysCheckTsc, MeasuringPlan plan) {
        return run(settings, alwaysCheckTsc, NOTHING, JnaLoader.NO_EXPORT_NEEDED, plan);
    }

    private static final Runnable NOTHING = new Runnable() {
        @Override
        public void run() {
            // the runtime's types are already there (the command line)
        }
    };

    /**
     * @param beforeJna makes the boot runtime's types exist before JNA's adapter (a MillisClock) is
     *     loaded; under -javaagent it defines them in the boot loader, which the agent otherwise does
     *     only once the decision is "active"
     */
    public static MachineProbe run(Settings settings, boolean alwaysCheckTsc, Runnable beforeJna, Consumer<Module> runtimeExportedTo,
            MeasuringPlan plan) {
        long start = System.nanoTime();
        MachineReader reader = new MachineReader(settings.sysfsRoot(), settings.procfsRoot());
        MachineFacts facts = reader.read();
        // One root for everything extracted (libfastclock, JNA): checked, and if need be replaced, once.
        ExtractionRoot extractionRoot = ExtractionRoot.of(NativeLibraryExtractor.defaultTempRoot());
        NativeLibraryLoader.Result loaded = NativeLibraryLoader.load(
                settings.library() == null ? null : settings.library().toString(), extractionRoot);
        // JNA only where it can matter: the JNI library failed and millis is left to auto, or
        // jna-coarse is named. When libfastclock loads, JNA is not touched at all.
        JnaLoader.Result jna = null;
        String jnaNotLooked = null;
        boolean jnaNamed = settings.millis() == Settings.Millis.JNA_COARSE;
        String notWorthIt = null;
        double[] interpreted = null;
        if (!jnaNamed && !alwaysCheckTsc && !loaded.loaded() && settings.millis() == Settings.Millis.AUTO) {
            interpreted = new double[] {InterpretedCost.upperBoundNanosPerCall(true, 0), InterpretedCost.upperBoundNanosPerCall(false, 0)};
            notWorthIt = jnaCannotWin(interpreted[0]);
        }
        if (jnaNamed || alwaysCheckTsc || (!loaded.loaded() && settings.millis() == Settings.Millis.AUTO && notWorthIt == null)) {
            // JNA is a sealed named module with native access of its own (nativelib.JnaModule): no JVM warning.
            beforeJna.run();
            jna = JnaLoader.load(extractionRoot, MillisClock.class.getClassLoader(), runtimeExportedTo);
        } else {
            jnaNotLooked = loaded.loaded() ? "JNA was not looked for because the JNI library loaded"
                    : notWorthIt != null ? notWorthIt
                    : "JNA was not looked for because millis=" + settings.millis().settingName() + " was named";
        }
        NativeStatus nativeStatus = new NativeStatus(loaded.loaded(), loaded.problem, jna != null && jna.available(),
                jna != null ? jna.problem : jnaNotLooked);
        Measurements measurements;
        long compiledNanos = 0;
        long lagNanos = 0;
        boolean compiledCutShort = false;
        if (loaded.loaded()) {
            Measurements.Builder b = measureBuilder(NativeCostMeter.forStartup(), facts);
            if (jna != null && jna.available()) {
                b.jnaCoarseNs(jna.nanosPerCall(NativeClocks.CLOCK_REALTIME_COARSE, JNA_BATCHES, JNA_CALLS));
            }
            if (alwaysCheckTsc || plan.replacementPossible(facts, b.build())) {
                long t0 = System.nanoTime();
                compiledCutShort = measureCompiled(b, settings, facts, nativeStatus, alwaysCheckTsc, plan);
                compiledNanos = System.nanoTime() - t0;
            }
            measurements = b.build();
        } else if (jna != null && jna.available()) {
            measurements = measureThroughJna(jna);
        } else if (notWorthIt != null) {
            // What ruled JNA out, timed from Java as measureThroughJna times them: the decision says why.
            measurements = Measurements.builder().realtimeNs(interpreted[0]).monotonicNs(interpreted[1])
                    .compiledRealtimeNs(interpreted[0]).compiledMonotonicNs(interpreted[1]).build();
        } else {
            measurements = Measurements.none();
        }

        TscChecks checks = null;
        TscHealth health = TscHealth.notChecked();
        if (loaded.loaded() && NativeClocks.isX86()
                && (plan.tscChecksWorthRunning(facts, nativeStatus, measurements) || alwaysCheckTsc)) {
            checks = TscChecks.run();
            health = toHealth(checks);
        }
        if (loaded.loaded() && (alwaysCheckTsc || plan.coarseLagWorthMeasuring(facts, measurements, nativeStatus, health))) {
            long t0 = System.nanoTime();
            measurements = measurements.withCoarseLagNs(jniCoarseLagNs(NativeClocks.clockGetres(NativeClocks.CLOCK_REALTIME_COARSE)));
            lagNanos = System.nanoTime() - t0;
        }
        String busy = checks != null && checks.crossCpuCutShortByBusyCpus
                ? "the cross-CPU TSC check could not finish (the CPUs were busy)"
                : compiledCutShort && plan.systemClocksMaybeSlow(facts, measurements)
                        ? "the clocks could not all be timed from compiled Java within the budget (the CPUs were busy, or slow)"
                        : null;
        return new MachineProbe(settings, reader, facts, loaded, extractionRoot.notice(), jna, nativeStatus, measurements, checks, health,
                System.nanoTime() - start, compiledNanos, lagNanos, busy);
    }

    /**
     * The least a JNA call has cost (clock_gettime through direct mapping, best of batches: 148-160 ns on
     * the machines here, twelve times a JNI call; 290 ns as the agent times it at start, interpreted).
     */
    static final double JNA_LEAST_NANOS = 140;

    /**
     * What currentTimeMillis must cost, as the interpreter times it, before JNA is loaded to compete with
     * it: three times JNA's least, 1.4 times what JNA cost as timed at start here. A JNA once loaded stays for
     * the JVM's life (JnaLoader keeps it; JNA 5.17 alone in a dropped loader was not collected either), so it is loaded only where it is sure to win, never to lose and
     * leave an inactive verdict with JNA in the JVM; between its least and this, it would win by little
     * or not at all (240 ns here: JNA timed at 293 ns, slower). JNA serves currentTimeMillis alone
     * (jna-coarse; java.time's epoch read follows it), so nanoTime's cost does not count.
     */
    static final double JNA_WORTH_LOADING_NANOS = 3 * JNA_LEAST_NANOS;

    /** Why JNA is not worth loading here, or null where it is: currentTimeMillis as the interpreter times it. */
    static String jnaCannotWin(double millis) {
        if (millis < JNA_WORTH_LOADING_NANOS) {
            return "JNA was not looked for: currentTimeMillis costs at most " + Math.round(millis)
                    + " ns a call, under the " + Math.round(JNA_WORTH_LOADING_NANOS) + " ns where JNA (at least "
                    + Math.round(JNA_LEAST_NANOS) + " ns a call) is sure to win, and JNA serves nothing else";
        }
        return null;
    }

    /**
     * The libraries as an agent with these settings would have them: the doctor loads JNA to report on
     * it, where an agent leaving millis to auto would not load it ({@link #jnaCannotWin}, from the
     * interpreted currentTimeMillis measured beside JNA), so that what the doctor says auto does is what it does.
     */
    public NativeStatus nativeStatusFor(Settings agentSettings) {
        if (nativeStatus.jniLoaded() || !nativeStatus.jnaAvailable() || agentSettings.millis() != Settings.Millis.AUTO) {
            return nativeStatus;
        }
        String notLoaded = jnaCannotWin(measurements.realtimeNs());
        return notLoaded == null ? nativeStatus : new NativeStatus(false, nativeStatus.jniProblem(), false, notLoaded);
    }

    /** The compiled-cost loop's hard budget where the system clocks are cheap: it needs 3-5 ms here under the simulator. */
    static final long COMPILED_BUDGET_NANOS = 15_000_000L;
    /** Its budget at most, where the system clocks are dear (every batch's own two timing reads are system reads). */
    static final long COMPILED_BUDGET_MAX_NANOS = 60_000_000L;
    /** Its budget on a clocksource known to be slow (the rounds end as soon as they are counted). */
    static final long COMPILED_BUDGET_SLOW_CLOCKSOURCE_NANOS = 200_000_000L;

    /**
     * Three times what the rounds should take, estimated from the system clocks' cost in C (the
     * system clocks' batches and every batch's two System.nanoTime reads), at least 15 ms and at most
     * 60 ms: with 6 us system clocks (an emulated HPET) 15 ms did not hold 100 rounds on this 2-core
     * machine under a load of 7, and there the application gains most.
     */
    static long compiledBudgetNanos(int clocks, int callsPerBatch, double systemNs, boolean clocksourceKnownSlow) {
        if (clocksourceKnownSlow) {
            // hpet, acpi_pm: where the agent gains most. The rounds stop once counted, so the
            // budget is spent only where the interpreter and C1 are slow too: in an emulated
            // acpi_pm guest 15 ms left the coarse clock unmeasured and auto on the system clock.
            return COMPILED_BUDGET_SLOW_CLOCKSOURCE_NANOS;
        }
        if (Double.isNaN(systemNs)) {
            return COMPILED_BUDGET_NANOS;
        }
        double roundNs = (2.0 * callsPerBatch + 2.0 * clocks + 1) * systemNs + clocks * callsPerBatch * 50.0;
        double wanted = 3 * roundNs * (CompiledCostMeter.MIN_ROUNDS + COMPILED_EXTRA_ROUNDS);
        return (long) Math.max(COMPILED_BUDGET_NANOS, Math.min(COMPILED_BUDGET_MAX_NANOS, wanted));
    }
    /** Rounds beyond CompiledCostMeter.MIN_ROUNDS: the compiled batches the minimum is taken over. */
    static final int COMPILED_EXTRA_ROUNDS = 50;

    /**
     * The candidates' and the system clocks' costs as JIT-compiled Java pays them (the TSC's as the
     * read each clock uses through JNI: the cheapest ordered one for nanoTime, a plain rdtsc for
     * currentTimeMillis; the clock's own arithmetic adds a few ns). What was not
     * timed, or not within the budget, stays unmeasured, and an unmeasured cost is never faster.
     */
    /** @return whether a clock it set out to time got no cost within the budget (busy CPUs, or a slow interpreter) */
    private static boolean measureCompiled(Measurements.Builder b, Settings settings, MachineFacts facts, NativeStatus nat,
            boolean everything, MeasuringPlan plan) {
        TscRead tscRead = null;
        if (NativeClocks.isX86() && (everything || plan.tscPossible(facts, nat))) {
            NativeCostMeter meter = NativeCostMeter.forStartup();
            double best = Double.NaN;
            for (TscRead r : TscReadChoice.orderedCandidates(NativeClocks.tscFlags())) {
                double c = meter.nanosPerCall(r.pseudoClockId);
                if (tscRead == null || c < best) {
                    tscRead = r;
                    best = c;
                }
            }
        }
        boolean coarseNanos = everything || settings.nanos() == Settings.Nanos.COARSE;
        Measurements cSide = b.build();
        double systemNs = Math.max(cSide.realtimeNs(), cSide.monotonicNs());
        // Where the system clocks cost this much in C, compiled Java pays the same (an intrinsic calling
        // clock_gettime): they are not timed again, so that the loop's own reads of a slow, perhaps
        // serialised clock are only its batches' two timing reads each.
        boolean systemTimedInC = !everything && !Double.isNaN(systemNs) && systemNs >= SYSTEM_TIMED_IN_C_NS;
        // With the TSC: nanoTime's ordered read and currentTimeMillis's plain one, each quoted by its clock's verdict.
        int[] clocks = new int[(systemTimedInC ? 0 : 2) + 1 + (coarseNanos ? 1 : 0) + (tscRead != null ? 2 : 0)];
        int k = 0;
        if (!systemTimedInC) {
            clocks[k++] = CompiledCostMeter.REALTIME;
            clocks[k++] = CompiledCostMeter.MONOTONIC;
        }
        clocks[k++] = CompiledCostMeter.REALTIME_COARSE;
        if (coarseNanos) {
            clocks[k++] = CompiledCostMeter.MONOTONIC_COARSE;
        }
        if (tscRead != null) {
            clocks[k++] = CompiledCostMeter.of(tscRead);
            clocks[k] = CompiledCostMeter.RDTSC;
        }
        int calls = systemTimedInC ? CompiledCostMeter.callsPerBatch(Double.NaN) : CompiledCostMeter.callsPerBatch(systemNs);
        double[] ns = CompiledCostMeter.nanosPerCall(clocks, compiledBudgetNanos(clocks.length, calls, systemNs, facts.clocksourceKnownSlow()),
                COMPILED_EXTRA_ROUNDS, calls);
        k = 0;
        if (systemTimedInC) {
            b.compiledRealtimeNs(cSide.realtimeNs()).compiledMonotonicNs(cSide.monotonicNs());
        } else {
            b.compiledRealtimeNs(ns[k++]).compiledMonotonicNs(ns[k++]);
        }
        b.realtimeCoarseNs(ns[k++]);
        b.monotonicCoarseNs(coarseNanos ? ns[k++] : Double.NaN);
        b.tscNs(tscRead != null ? ns[k++] : Double.NaN);
        b.tscMillisNs(tscRead != null ? ns[k] : Double.NaN);
        for (double v : ns) {
            if (Double.isNaN(v)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The system clocks' cost in C from which the compiled-cost loop takes it as what compiled Java pays
     * (decide.ChoiceRules.UNCONFIRMED_SYSTEM_NS's figure: no JNI transition makes up such a difference).
     */
    static final double SYSTEM_TIMED_IN_C_NS = 300;

    /** The coarse lag's duration: a tick and a quarter, so that the sawtooth's peak is in it; 2 to 12 ms. */
    static long coarseLagDurationNs(long resolutionNs) {
        return Math.max(2_000_000L, Math.min(12_000_000L, resolutionNs + resolutionNs / 4));
    }

    /**
     * {@link #coarseLagNs} through the JNI library, without suppliers: at start-up the first lambda
     * of a JVM costs milliseconds of java.lang.invoke set-up, more than the measurement itself.
     */
    static long jniCoarseLagNs(long resolutionNs) {
        if (resolutionNs <= 0) {
            return Measurements.UNKNOWN_LAG;
        }
        long worst = Long.MIN_VALUE;
        long end = System.nanoTime() + coarseLagDurationNs(resolutionNs);
        do {
            long before = NativeClocks.clockGettime(NativeClocks.CLOCK_REALTIME);
            long millis = NativeClocks.realtimeCoarseMillis();
            if (before >= 0) {
                worst = Math.max(worst, MillisLagMeter.behindNs(before, millis));
            }
        } while (System.nanoTime() - end < 0);
        return worst == Long.MIN_VALUE ? Measurements.UNKNOWN_LAG : worst;
    }

    /**
     * How far the coarse clock is behind CLOCK_REALTIME here: the worst of reads bracketed by the
     * reference over a tick and a quarter (at least 2 ms, at most 12 ms), so that the sawtooth's
     * peak is in it. {@link Measurements#UNKNOWN_LAG} when the tick is unknown or no read had a reference.
     */
    static long coarseLagNs(LongSupplier coarseMillis, LongSupplier referenceNs, long resolutionNs) {
        if (resolutionNs <= 0) {
            return Measurements.UNKNOWN_LAG;
        }
        long durationNs = coarseLagDurationNs(resolutionNs);
        List<MillisLagMeter.Result> r = MillisLagMeter.measure(Collections.singletonMap(BackendNames.COARSE, coarseMillis),
                referenceNs, System::nanoTime, durationNs);
        return r.get(0).reads > 0 ? r.get(0).worstBehindNs : Measurements.UNKNOWN_LAG;
    }

    static final int JNA_BATCHES = 5;
    static final int JNA_CALLS = 1_000;

    /**
     * Without libfastclock, the costs come through JNA, timed in Java (interpreted at start-up):
     * jnaCoarseNs is the whole cost of a jna-coarse read as measured (an upper bound of the compiled
     * cost), and the system clocks' costs are what a fine clock_gettime adds over the coarse one on
     * the same path, so JNA's own overhead and the interpreter's cancel out.
     */
    static Measurements measureThroughJna(JnaLoader.Result jna) {
        double coarse = jna.nanosPerCall(NativeClocks.CLOCK_REALTIME_COARSE, JNA_BATCHES, JNA_CALLS);
        // The system clocks as Java calls them (interpreted, so an upper bound), not JNA's realtime
        // read minus its coarse one: beside JNA's own ~190 ns that difference is noise, and it made
        // a 30 ns clock look like 0 ns on one run and 183 ns (so "slower than JNA") on another.
        double realtime = InterpretedCost.upperBoundNanosPerCall(true, 0);
        double monotonic = InterpretedCost.upperBoundNanosPerCall(false, 0);
        // All three timed the same way (from Java, interpreted): the comparison is like with like.
        return Measurements.builder()
                .jnaCoarseNs(coarse)
                .realtimeNs(realtime)
                .monotonicNs(monotonic)
                .compiledRealtimeNs(realtime)
                .compiledMonotonicNs(monotonic)
                .coarseResolutionNs(jna.coarseResolutionNanos())
                .coarseLagNs(coarseLagNs(jna.clock::currentTimeMillis, MachineProbe::instantNanos, jna.coarseResolutionNanos()))
                .build();
    }

    /** CLOCK_REALTIME in ns through the JDK (JDK 15+: clock_gettime), where the JNI library is not there. */
    private static long instantNanos() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }

    /**
     * The system clocks' cost timed in C (whether they are slow) and the coarse resolution. The
     * candidates' costs come only from compiled Java ({@link #measureCompiled}): timed in C they
     * leave out the JNI transition the application pays.
     */
    static Measurements.Builder measureBuilder(NativeCostMeter meter, MachineFacts facts) {
        return Measurements.builder()
                .realtimeNs(meter.nanosPerCall(NativeClocks.CLOCK_REALTIME))
                .monotonicNs(meter.nanosPerCall(NativeClocks.CLOCK_MONOTONIC))
                .coarseResolutionNs(NativeClocks.clockGetres(NativeClocks.CLOCK_REALTIME_COARSE));
    }

    static TscHealth toHealth(TscChecks checks) {
        boolean calibrated = checks.calibration != null && checks.calibration.converged;
        String calibrationProblem = checks.calibration == null ? "not calibrated: an earlier check failed"
                : checks.calibration.problem;
        return new TscHealth(true, checks.cpuidInvariant(), calibrated, calibrated ? null : calibrationProblem,
                checks.crossCpuOk(), checks.crossCpuProblem);
    }
}
