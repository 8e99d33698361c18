package io.fastclock.agent;

import io.fastclock.boot.ClockRegistry;
import io.fastclock.boot.ClockSwitch;
import io.fastclock.boot.InstalledClocks;
import io.fastclock.boot.JdkEpoch;
import io.fastclock.clock.CoarseEpoch;
import io.fastclock.clock.CoarseMillis;
import io.fastclock.clock.CoarseNanos;
import io.fastclock.clock.JnaCoarseEpoch;
import io.fastclock.clock.LagCheckedEpoch;
import io.fastclock.clock.LagCheckedMillis;
import io.fastclock.clock.NativeClocks;
import io.fastclock.clock.SystemMillis;
import io.fastclock.clock.SystemNanos;
import io.fastclock.clock.TscClock;
import io.fastclock.clock.TscEpoch;
import io.fastclock.clock.TscMillis;
import io.fastclock.clock.TscNanos;
import io.fastclock.config.Backend;
import io.fastclock.config.BackendNames;
import io.fastclock.config.ClockRead;
import io.fastclock.config.JdkSetting;
import io.fastclock.config.OneLine;
import io.fastclock.config.Settings;
import io.fastclock.decide.Decision;
import io.fastclock.decide.JavaTimeCoverage;
import io.fastclock.decide.ProbedDecision;
import io.fastclock.observe.Telemetry;
import io.fastclock.observe.TscClockFigures;
import io.fastclock.probe.MachineProbe;
import io.fastclock.probe.Measurements;
import io.fastclock.probe.TscClockStarter;
import io.fastclock.rewrite.ClassFilter;
import io.fastclock.rewrite.ClockReplacements;
import io.fastclock.rewrite.ClockTransformer;
import io.fastclock.rewrite.JdkScope;
import io.fastclock.rewrite.RewriteLines;
import io.fastclock.rewrite.RewriteStats;
import io.fastclock.runtime.EpochClock;
import io.fastclock.runtime.MillisClock;
import io.fastclock.runtime.NanosClock;
import java.lang.instrument.Instrumentation;
import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.LongSupplier;

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
            EntryPoint how, boolean background, String note, Module runtime) throws ReflectiveOperationException {
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
        EpochClock epoch = coverage.serves(ClockRead.EPOCH) ? epochClock(tsc, probe, decision, lagChecked) : null;
        NanosClock nanos = nanosClock(decision.nanos().backend(), tsc);
        // Only this module can reach the registry (the runtime exports it to no other): a refusal means
        // another copy of fastclock got there first.
        if (!ClockRegistry.install(millis, nanos, epoch) || !InstalledClocks.hold(millis, nanos, epoch)) {
            String line = "inactive: another copy of fastclock set up the runtime in this JVM; no call site is rewritten";
            log.info(line);
            AgentState.inactive(line);
            return;
        }
        if (epoch != null) {
            InstalledClocks.nanoTimeAdjustment(0); // before any JDK class calls it
        }
        JdkScope jdkScope = jdkScope(coverage.scope());
        Set<ClockReplacements.Served> rows = served(coverage.served());
        if (jdkScope == JdkScope.NONE) {
            rows.remove(ClockReplacements.Served.EPOCH); // only the JDK's classes read the epoch adjustment
        }
        ClockTransformer.Scope scope = new ClockTransformer.Scope(new ClassFilter(settings.include(), settings.exclude()),
                jdkScope, ClockReplacements.serving(rows));
        Takeover takeover = Takeover.at(inst, runtime, scope, settings.log() == Settings.Log.QUIET,
                log.debugEnabled() ? new RewriteLines(log::debug) : new FirstFailureReporter(log));
        ClockTransformer transformer = takeover.transformer();
        Class<?>[] loaded = inst.getAllLoadedClasses();
        transformer.shadows().noteLoaded(loaded);
        JdkSetting jdk = transformer.jdkScope() == JdkScope.NONE ? JdkSetting.NONE : coverage.scope();
        Set<ClockReplacements.Served> switched = switched(decision, epoch != null && jdk != JdkSetting.NONE);
        String notSwitched = ClockSwitch.switchTo(inst, transformer, switched);
        if (notSwitched != null) {
            String line = "inactive: " + notSwitched + "; the application runs on the system clocks";
            log.info(line);
            Takeover.undo(inst, log);
            AgentState.inactive(line);
            return;
        }
        Detacher.install(inst, transformer, tsc);
        RewriteStats stats = transformer.stats();
        RewriteStats jdkStats = transformer.jdkStats();
        long appBefore = stats.rewritten();
        long jdkBefore = jdkStats.rewritten();
        long jdkSitesBefore = jdkStats.callSites();
        long sitesBefore = stats.callSites() + jdkSitesBefore;
        // Classes loaded before the transformer (the JDK's, within the jdk scope; another agent's; an
        // early application class), those it left for want of ASM, and, where the scope narrowed, those it
        // changed under the wider one. A failure here leaves those classes as they were.
        // Attached, generated classes (no class file to read) are left to a gentler pass in the background.
        Retransformer retransformer = new Retransformer(inst, transformer);
        List<Class<?>> generated = attached ? new ArrayList<>() : null;
        Retransformer.Outcome early = retransformer.run(loaded, false, generated, takeover.seen, takeover.again);
        if (generated != null && !generated.isEmpty()) {
            GeneratedClassesPass.start(retransformer, generated, log);
        }
        long appRetransformed = stats.rewritten() - appBefore;
        long jdkRetransformed = jdkStats.rewritten() - jdkBefore;
        String asTheyLoaded = takeover.seen.isEmpty() || !background ? "" : appBefore + " classes rewritten as they loaded since premain, ";
        int loadedBefore = takeover.seen.isEmpty() ? loadedBeforeAgent : loadedBefore(loaded, takeover.seen);
        String startLine = decision.summary() + probed.nativeNote() + "; " + millisResolution(decision, probe) + "; "
                + coverage.account(jdk, ": " + jdkRetransformed + " JDK classes changed at start ("
                        + (jdkStats.callSites() - jdkSitesBefore) + " call sites), the others as they load")
                + "; " + asTheyLoaded + appRetransformed + " of " + loadedBefore + " classes loaded before the agent rewritten"
                + note;
        // Said, recorded, then published, fastclock.active last: whoever sees the verdict (with
        // start=background, the application itself) finds the start line written, the JFR events
        // committed to a running recording and L set, even if the JVM ends right after.
        log.info(startLine);
        Telemetry.started(settings, ActivationFactsOf.decision(how.methodName(), startLine, probed, settings), AgentState.READER);
        Telemetry.retransformed((int) (appRetransformed + jdkRetransformed),
                (int) (stats.callSites() + jdkStats.callSites() - sitesBefore), early.elapsedNanos);
        if (tsc != null) {
            Telemetry.tscClock(TscClockFigures.watch(tsc));
        }
        if (early.failed > 0) {
            log.info("could not retransform " + early.failed + " class(es), first " + early.firstFailure
                    + "; they keep the system clocks");
        }
        if (log.debugEnabled()) {
            log.debug("retransformed " + early.retransformed + " of " + early.candidates + " candidate classes"
                    + " in " + (early.elapsedNanos / 1000) + " us, of which choosing them "
                    + (early.scanNanos / 1000) + " us (" + early.unreadable
                    + " whose class file could not be read were left alone)");
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
            Runtime.getRuntime().addShutdownHook(new Thread(
                    () -> log.debug("totals: " + stats + "; JDK classes: " + jdkStats), "fastclock-exit-report"));
        }
        LiveAgentState.millisLag(statedLagMs(decision));
        LiveAgentState.active(startLine, decision.millis().backend(), decision.nanos().backend(),
                epoch != null && jdk != JdkSetting.NONE ? epoch.name() : BackendNames.SYSTEM, stats, jdkStats, tsc);
        if (lagChecked != null) {
            startLagWatch(lagChecked, probe, decision, log);
        }
        Confirmation.scheduleIfNeeded(decision, probe, tsc, lagChecked, log);
    }

    /** The runtime's name for the JDK classes the decision changes. */
    static JdkScope jdkScope(JdkSetting setting) {
        switch (setting) {
            case TIME:
                return JdkScope.TIME;
            case ALL:
                return JdkScope.ALL;
            default:
                return JdkScope.NONE;
        }
    }

    /** The runtime's names for the reads the decision serves. */
    static Set<ClockReplacements.Served> served(Set<ClockRead> reads) {
        Set<ClockReplacements.Served> out = new HashSet<>();
        for (ClockRead read : reads) {
            out.add(read == ClockRead.MILLIS ? ClockReplacements.Served.MILLIS
                    : read == ClockRead.NANOS ? ClockReplacements.Served.NANOS : ClockReplacements.Served.EPOCH);
        }
        return out;
    }

    /** The clocks FastClock switches to the installed backends: those not left on the system clock. */
    static Set<ClockReplacements.Served> switched(Decision decision, boolean epoch) {
        Set<ClockReplacements.Served> out = new HashSet<>();
        if (decision.millis().backend() != Backend.SYSTEM) {
            out.add(ClockReplacements.Served.MILLIS);
        }
        if (decision.nanos().backend() != Backend.SYSTEM) {
            out.add(ClockReplacements.Served.NANOS);
        }
        if (epoch) {
            out.add(ClockReplacements.Served.EPOCH);
        }
        return out;
    }

    /** Loaded classes the transformer did not see load: those loaded before premain installed it (fastclock's aside). */
    private static int loadedBefore(Class<?>[] loaded, Set<String> seen) {
        int count = 0;
        for (Class<?> c : loaded) {
            String name = c.getName();
            if (!name.startsWith("io.fastclock.") && !c.isArray() && !seen.contains(name.replace('.', '/'))) {
                count++;
            }
        }
        return count;
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


    /** java.time's own read, for after a TSC fallback: the runtime's, which java.base lets call jdk.internal.misc. */
    private static EpochClock systemEpoch() {
        return JdkEpoch.INSTANCE;
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
}
