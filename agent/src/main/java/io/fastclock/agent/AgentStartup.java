package io.fastclock.agent;

import io.fastclock.config.OneLine;
import io.fastclock.config.Settings;
import io.fastclock.observe.Telemetry;
import io.fastclock.observe.TscClockFigures;
import io.fastclock.config.Backend;
import io.fastclock.config.BackendNames;
import io.fastclock.decide.Decision;
import io.fastclock.decide.JavaTimeCoverage;
import io.fastclock.probe.MachineProbe;
import io.fastclock.probe.Measurements;
import io.fastclock.probe.TscClockStarter;
import io.fastclock.rewrite.ClassFilter;
import io.fastclock.rewrite.ClockReplacements;
import io.fastclock.rewrite.ClockTransformer;
import io.fastclock.config.JdkScope;
import io.fastclock.rewrite.RewriteListener;
import io.fastclock.rewrite.RewriteStats;
import io.fastclock.rewrite.RuntimeShadows;
import io.fastclock.runtime.ClockRegistry;
import io.fastclock.clock.CoarseEpoch;
import io.fastclock.clock.CoarseMillis;
import io.fastclock.clock.JnaCoarseEpoch;
import io.fastclock.clock.CoarseNanos;
import io.fastclock.clock.LagCheckedEpoch;
import io.fastclock.clock.LagCheckedMillis;
import io.fastclock.runtime.EpochClock;
import io.fastclock.runtime.FastClock;
import io.fastclock.runtime.MillisClock;
import io.fastclock.runtime.NanosClock;
import io.fastclock.clock.NativeClocks;
import io.fastclock.clock.SystemMillis;
import io.fastclock.clock.SystemEpoch;
import io.fastclock.clock.SystemNanos;
import io.fastclock.clock.TscClock;
import io.fastclock.clock.TscEpoch;
import io.fastclock.clock.TscMillis;
import io.fastclock.clock.TscNanos;
import io.fastclock.decide.ProbedDecision;

import java.lang.instrument.Instrumentation;
import java.util.function.LongSupplier;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * What premain does once the decision is "active" and the runtime is in the boot loader: the clocks,
 * the transformer, the retransformation of what is loaded. Loaded only then: its code names the
 * runtime's classes, which exist only once defined.
 */
final class AgentStartup {
    private AgentStartup() {}

    /**
     * @param how premain or agentmain; from agentmain every loaded class is the application's, so
     *     classes whose class file cannot be read as a resource (generated at run time) are
     *     retransformed too, and the transformer decides from their real bytes
     * @param background premain on start=background's thread, or a later measurement (BusyRetry): main
     *     has run meanwhile, so what has loaded is taken over as from agentmain
     * @param note what the start line ends with (how it was decided), or ""
     */
    static void start(Settings settings, Instrumentation inst, ProbedDecision probed, AgentLog log, int loadedBeforeAgent,
            EntryPoint how, boolean background, String note) throws ReflectiveOperationException {
        boolean attached = how == EntryPoint.AGENTMAIN || background;
        MachineProbe probe = probed.probe();
        Decision decision = probed.decision();
        long started = System.nanoTime() - probe.elapsedNanos; // for log=debug's start-up figure
        TscClock tsc = null;
        if (decision.millis().backend() == Backend.TSC || decision.nanos().backend() == Backend.TSC) {
            tsc = TscClockStarter.start(probe.tscChecks, settings.recheckMs() * 1_000_000L,
                    new SysfsTscTrust(probe.reader), LiveAgentState.publishingFallbacks(log));
        }
        MillisClock jna = probe.jna == null ? null : probe.jna.clock;
        JavaTimeCoverage coverage = JavaTimeCoverage.of(decision, settings, probe.measurements.coarseResolutionNs());
        MillisClock millis = millisClock(decision.millis().backend(), tsc, jna);
        LagCheckedMillis lagChecked = lagChecked(decision, millis);
        if (lagChecked != null) {
            millis = lagChecked;
        }
        EpochClock epoch = coverage.table().serves(ClockReplacements.Served.EPOCH) ? epochClock(tsc, probe, decision, lagChecked) : null;
        NanosClock nanos = nanosClock(decision.nanos().backend(), tsc);
        // The runtime's install is public (it lives in the boot loader's unnamed module): only a
        // FastClock that sealed exactly these backends gets call sites rewritten to it. It is not
        // initialised where the install was refused: it would seal what other code installed.
        boolean installed = ClockRegistry.install(millis, nanos, epoch);
        if (installed) {
            FastClock.nanoTime(); // initialise now, off the application's first call
        }
        if (!installed || !ClockRegistry.sealedAre(millis, nanos, epoch)) {
            String line = "inactive: the fastclock runtime was set up by other code in this JVM; no call site is rewritten";
            log.info(line);
            AgentState.inactive(line);
            return;
        }
        if (epoch != null) {
            FastClock.nanoTimeAdjustment(0); // and the epoch read, before any JDK class calls it
        }
        RuntimeShadows shadows = runtimeShadows(inst, log);

        RewriteStats stats = new RewriteStats();
        RewriteStats jdkStats = new RewriteStats();
        Set<String> changed = Detacher.newChangedSet();
        RewriteListener listener = Detacher.recording(changed,
                log.debugEnabled() ? new DebugListener(log) : new FirstFailureReporter(log));
        ClockTransformer transformer = transformer(settings, coverage, stats, jdkStats, listener,
                module -> readsRuntime(inst, module), shadows, log);
        JdkScope jdk = transformer.jdkScope();
        inst.addTransformer(transformer, true);
        Detacher.install(inst, transformer, tsc, changed);
        // Classes loaded before the transformer: the JDK's (within the jdk scope), another agent's,
        // an early application class. A failure here leaves those classes as they were.
        // Attached, generated classes (no class file to read) are left to a gentler pass in the background.
        Retransformer retransformer = new Retransformer(inst, transformer);
        List<Class<?>> generated = attached ? new ArrayList<>() : null;
        Retransformer.Outcome early = retransformer.run(inst.getAllLoadedClasses(), false, generated);
        if (generated != null && !generated.isEmpty()) {
            GeneratedClassesPass.start(retransformer, generated, log);
        }
        String startLine = decision.summary() + probed.nativeNote() + "; " + millisResolution(decision, probe) + "; "
                + jdkCoverage(coverage, jdk, jdkStats) + "; " + stats.rewritten() + " of " + loadedBeforeAgent
                + " classes loaded before the agent rewritten" + note;
        // Said, then published, fastclock.active last: whoever sees the verdict (with start=background,
        // the application itself) finds the start line written and L set, even if the JVM ends right after.
        log.info(startLine);
        LiveAgentState.millisLag(statedLagMs(decision));
        LiveAgentState.active(startLine, decision.millis().backend(), decision.nanos().backend(),
                epoch != null && jdk != JdkScope.NONE ? epoch.name() : BackendNames.SYSTEM, stats, jdkStats, tsc);
        if (lagChecked != null) {
            startLagWatch(lagChecked, probe, decision, log);
        }
        Telemetry.started(settings, ActivationFactsOf.decision(how.methodName(), startLine, probed, settings), AgentState.READER);
        Telemetry.retransformed((int) (stats.rewritten() + jdkStats.rewritten()),
                (int) (stats.callSites() + jdkStats.callSites()), early.elapsedNanos);
        if (tsc != null) {
            Telemetry.tscClock(TscClockFigures.watch(tsc));
        }
        if (early.failed > 0) {
            log.info("could not retransform " + early.failed + " class(es), first " + early.firstFailure
                    + "; they keep the system clocks");
        }
        if (log.debugEnabled()) {
            log.debug("retransformed " + early.retransformed + " of " + early.candidates + " candidate classes loaded"
                    + " before the agent in " + (early.elapsedNanos / 1000) + " us, of which choosing them "
                    + (early.scanNanos / 1000) + " us (" + early.unreadable
                    + " whose class file could not be read were left alone)");
        }
        if (log.debugEnabled()) {
            // Guarded: the first String.format in a JVM loads the Formatter machinery, ~10 ms here.
            long coarseLagNs = probe.measurements.coarseLagNs();
            log.debug(String.format("start-up took %.1f ms (probe %.1f ms, of which compiled costs %.1f ms and the coarse"
                    + " lag %.1f ms%s)", (System.nanoTime() - started) / 1e6, probe.elapsedNanos / 1e6,
                    probe.compiledCostNanos / 1e6, probe.coarseLagNanos / 1e6, coarseLagNs == Measurements.UNKNOWN_LAG ? ""
                            : String.format(java.util.Locale.ROOT, ": CLOCK_REALTIME_COARSE found up to %.6f ms behind", coarseLagNs / 1e6)));
            if (probe.jna != null) {
                log.debug(String.format("JNA: %s in %.1f ms", probe.jna.available() ? "loaded privately" : probe.jna.problem,
                        probe.jna.elapsedNanos / 1e6));
            }
        }
        if (log.debugEnabled()) {
            Runtime.getRuntime().addShutdownHook(new Thread(
                    () -> log.debug("totals: " + stats + "; JDK classes: " + jdkStats), "fastclock-exit-report"));
        }
    }

    /**
     * The transformer, built with the JDK scope in force: the coverage's, narrowed to none where
     * java.base cannot read the runtime. That is asked first, so that the scope the start line and
     * the published state report is the one the transformer changes JDK classes under.
     *
     * @param readsRuntime whether a module reads the runtime (adding the read edge where it can)
     */
    static ClockTransformer transformer(Settings settings, JavaTimeCoverage coverage, RewriteStats stats,
            RewriteStats jdkStats, RewriteListener listener, Predicate<Module> readsRuntime, RuntimeShadows shadows,
            AgentLog log) {
        JdkScope jdk = coverage.scope();
        if (jdk != JdkScope.NONE && !readsRuntime.test(Object.class.getModule())) {
            log.info("java.base cannot read the fastclock runtime; the JDK's classes keep the JDK's clocks");
            jdk = JdkScope.NONE;
        }
        return new ClockTransformer(new ClassFilter(settings.include(), settings.exclude()), jdk, coverage.table(),
                stats, jdkStats, listener, readsRuntime, shadows);
    }

    /**
     * The loaders in which a rewritten call site would not reach this runtime: those holding a class
     * named like it already (a class-path copy loaded before an attach or a background verdict), and
     * the JDK's application and platform loaders where they answer its names with another class. The
     * two are asked now, so that each records the boot runtime and cannot define a class of its name
     * later.
     */
    private static RuntimeShadows runtimeShadows(Instrumentation inst, AgentLog log) {
        RuntimeShadows shadows = new RuntimeShadows(log::info);
        shadows.noteLoaded(inst.getAllLoadedClasses());
        Class<?>[] runtime = {FastClock.class, ClockRegistry.class, MillisClock.class, NanosClock.class, EpochClock.class};
        shadows.pin(ClassLoader.getPlatformClassLoader(), runtime);
        shadows.pin(ClassLoader.getSystemClassLoader(), runtime);
        return shadows;
    }

    /**
     * java.time's epoch read, for the rows {@link JavaTimeCoverage} hands over: the TSC clock's where
     * it runs, else (instant=coarse) CLOCK_REALTIME_COARSE through the library currentTimeMillis uses,
     * leaving the coarse clock when currentTimeMillis does.
     *
     * @param lagChecked the watched coarse currentTimeMillis, or null
     */
    private static EpochClock epochClock(TscClock tsc, MachineProbe probe, Decision decision, LagCheckedMillis lagChecked)
            throws ReflectiveOperationException {
        EpochClock jdkRead = systemEpoch();
        if (tsc != null) {
            return new TscEpoch(tsc, jdkRead);
        }
        EpochClock coarse = coarseEpochClock(probe, decision, jdkRead);
        return lagChecked == null ? coarse : new LagCheckedEpoch(coarse, jdkRead, lagChecked);
    }

    private static EpochClock coarseEpochClock(MachineProbe probe, Decision decision, EpochClock jdkRead) {
        if (decision.millis().backend() == Backend.JNA_COARSE) {
            MethodHandle read = probe.jna == null ? null : probe.jna.realtimeCoarseNanos();
            if (read == null) {
                throw new IllegalStateException("JNA's CLOCK_REALTIME_COARSE read cannot be reached");
            }
            return new JnaCoarseEpoch(read, jdkRead);
        }
        return new CoarseEpoch(jdkRead);
    }

    /** The start line's account of the JDK classes changed. */
    private static String jdkCoverage(JavaTimeCoverage coverage, JdkScope used, RewriteStats jdkStats) {
        // java.time is rarely loaded before the agent: most of it is changed later, as it loads.
        return coverage.account(used, ": " + jdkStats.rewritten() + " JDK classes changed at start ("
                + jdkStats.callSites() + " call sites), the others as they load");
    }

    /** java.time's own read, for after a TSC fallback: looked up here, where jdk.internal.misc is exported. */
    private static EpochClock systemEpoch() throws ReflectiveOperationException {
        MethodHandle h = MethodHandles.lookup().findStatic(Class.forName("jdk.internal.misc.VM"),
                "getNanoTimeAdjustment", MethodType.methodType(long.class, long.class));
        return new SystemEpoch(h);
    }

    /** agentmain("detach") in a JVM where fastclock is loaded: restores the original code. */
    static void detach(Settings.Log level) {
        String line = Detacher.detachInstalled();
        if (line == null) {
            new AgentLog(level).info("nothing to detach: fastclock is inactive in this JVM and changed no code");
            return;
        }
        LiveAgentState.detached(line);
        new AgentLog(level).info(line);
    }

    /** A coarse millis backend is watched while running (CoarseLagWatch); null for the others. */
    private static LagCheckedMillis lagChecked(Decision decision, MillisClock millis) {
        Backend b = decision.millis().backend();
        boolean coarse = (b == Backend.COARSE || b == Backend.JNA_COARSE) && !(millis instanceof SystemMillis);
        return coarse && decision.millis().lagNs() > 0 ? new LagCheckedMillis(millis) : null;
    }

    /** CLOCK_REALTIME in ns for the watch: through the JNI library, or the JDK's own read where only JNA is there. */
    private static LongSupplier lagReference(MachineProbe probe) throws ReflectiveOperationException {
        if (probe.nativeResult.loaded()) {
            return () -> NativeClocks.clockGettime(NativeClocks.CLOCK_REALTIME);
        }
        // The JDK's own CLOCK_REALTIME read, not Instant.now(): with instant=coarse the agent has
        // handed java.time to the coarse clock, which would then be measured against itself.
        EpochClock jdkRead = systemEpoch();
        return () -> jdkRead.nanoTimeAdjustment(0);
    }

    /**
     * A coarse clock nobody watches could fall behind its L unnoticed: where the watch cannot start
     * (no thread to be had), currentTimeMillis goes back to the system clock, with one line.
     */
    private static void startLagWatch(LagCheckedMillis lagChecked, MachineProbe probe, Decision decision, AgentLog log) {
        try {
            CoarseLagWatch.start(new CoarseLagWatch(lagChecked, lagReference(probe), probe.measurements.coarseResolutionNs(),
                    decision.millis().lagNs(), new CoarseLagLines(log)));
        } catch (RuntimeException | Error | ReflectiveOperationException e) {
            lagChecked.moveToSystemClock();
            String why = "the coarse clock's lag cannot be watched (" + OneLine.escape(String.valueOf(e))
                    + "); currentTimeMillis stays on the system clock";
            LiveAgentState.millisOnSystemClock(why);
            log.info(why);
        }
    }

    /** The start line's L in whole ms, rounded up (as the contract's integer check reads it). */
    static long statedLagMs(Decision decision) {
        return (Math.max(decision.millis().lagNs(), 0) + 999_999L) / 1_000_000L;
    }

    /** The contract asks for the millis clock's resolution to be reported at start-up. */
    private static String millisResolution(Decision decision, MachineProbe probe) {
        long resolutionNs = decision.millis().backend() == Backend.COARSE
                ? NativeClocks.clockGetres(NativeClocks.CLOCK_REALTIME_COARSE)
                : decision.millis().backend() == Backend.JNA_COARSE ? probe.measurements.coarseResolutionNs() : 1_000_000L;
        return "currentTimeMillis resolution " + Math.max(1, resolutionNs / 1_000_000L) + " ms, lag up to "
                + statedLagMs(decision) + " ms";
    }

    /** A class in a named module must read the boot loader's unnamed module to link to FastClock. */
    private static boolean readsRuntime(Instrumentation inst, Module module) {
        try {
            Module runtime = FastClock.class.getModule();
            if (!module.canRead(runtime)) {
                inst.redefineModule(module, Collections.singleton(runtime), Collections.emptyMap(),
                        Collections.emptyMap(), Collections.emptySet(), Collections.emptyMap());
            }
            return module.canRead(runtime);
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** @param jna the jna-coarse clock when JNA was loaded, else null */
    static MillisClock millisClock(Backend backend, TscClock tsc, MillisClock jna) {
        switch (backend) {
            case COARSE:
                return new CoarseMillis();
            case JNA_COARSE:
                return jna != null ? jna : new SystemMillis();
            case TSC:
                return new TscMillis(tsc);
            default:
                return new SystemMillis();
        }
    }

    static NanosClock nanosClock(Backend backend, TscClock tsc) {
        switch (backend) {
            case COARSE:
                return new CoarseNanos();
            case TSC:
                return new TscNanos(tsc);
            default:
                return new SystemNanos();
        }
    }

    /** log=debug: one line per rewritten class, and every failure. */
    private static final class DebugListener implements RewriteListener {
        private final AgentLog log;

        DebugListener(AgentLog log) {
            this.log = log;
        }

        @Override
        public void rewritten(String className, int callSites) {
            log.debug("rewrote " + className.replace('/', '.') + " (" + callSites + " call sites)");
        }

        @Override
        public void failed(String className, Throwable t) {
            log.debug("left " + className.replace('/', '.') + " unchanged: rewriting it failed: " + t);
        }
    }
}
