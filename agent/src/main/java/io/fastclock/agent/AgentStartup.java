package io.fastclock.agent;

import io.fastclock.config.Settings;
import io.fastclock.observe.Telemetry;
import io.fastclock.observe.TscClockFigures;
import io.fastclock.probe.Backend;
import io.fastclock.probe.Decision;
import io.fastclock.rewrite.ClassFilter;
import io.fastclock.rewrite.ClockTransformer;
import io.fastclock.rewrite.RewriteListener;
import io.fastclock.rewrite.RewriteStats;
import io.fastclock.runtime.ClockRegistry;
import io.fastclock.runtime.CoarseMillis;
import io.fastclock.runtime.CoarseNanos;
import io.fastclock.runtime.FastClock;
import io.fastclock.runtime.LongClock;
import io.fastclock.runtime.NativeClocks;
import io.fastclock.runtime.SystemMillis;
import io.fastclock.runtime.SystemNanos;
import io.fastclock.runtime.TscClock;
import io.fastclock.runtime.TscMillis;
import io.fastclock.runtime.TscNanos;

import java.lang.instrument.Instrumentation;
import java.util.Collections;

/** What premain does once the runtime is in the boot loader: settings, probe, decision, transformer. */
final class AgentStartup {
    /** Set for the application and tests to see: "true" when call sites are being rewritten. */
    static final String ACTIVE_PROPERTY = Settings.ACTIVE_PROPERTY;

    private AgentStartup() {}

    /** @param how premain or agentmain */
    static void start(Settings settings, Instrumentation inst, Object bootNativeLibraries, int loadedBeforeAgent, String how) {
        long started = System.nanoTime();
        AgentLog log = new AgentLog(settings.log());
        if (settings.mode() == Settings.Mode.OFF) {
            System.setProperty(ACTIVE_PROPERTY, "false");
            log.info("inactive: mode=off");
            return;
        }
        MachineProbe probe = MachineProbe.run(settings, bootNativeLibraries, false);
        for (String problem : probe.facts.problems()) {
            log.debug(problem);
        }
        Decision decision = probe.decision;
        for (String warning : decision.warnings()) {
            log.info(warning);
        }
        if (!decision.active()) {
            System.setProperty(ACTIVE_PROPERTY, "false");
            log.info(decision.summary() + nativeNote(probe));
            Telemetry.started(settings, ActivationFactsOf.decision(how, decision.summary() + nativeNote(probe), probe, settings));
            return;
        }
        TscClock tsc = null;
        if (decision.millis().backend() == Backend.TSC || decision.nanos().backend() == Backend.TSC) {
            tsc = TscClockStarter.start(probe.tscChecks, settings.recheckMs() * 1_000_000L,
                    new SysfsTscTrust(probe.reader), log);
        }
        LongClock jna = probe.jna == null ? null : probe.jna.clock;
        if (!ClockRegistry.install(millisClock(decision.millis().backend(), tsc, jna),
                nanosClock(decision.nanos().backend(), tsc))) {
            log.info("inactive: the fastclock runtime was already in use in this JVM");
            return;
        }
        FastClock.nanoTime(); // initialise now, off the application's first call

        RewriteStats stats = new RewriteStats();
        RewriteListener listener = log.debugEnabled() ? new DebugListener(log) : new FirstFailureReporter(log);
        ClockTransformer transformer = new ClockTransformer(new ClassFilter(settings.include(), settings.exclude()),
                stats, listener, module -> readsRuntime(inst, module));
        inst.addTransformer(transformer, false);
        System.setProperty(ACTIVE_PROPERTY, "true");
        String startLine = decision.summary() + nativeNote(probe) + "; " + millisResolution(decision, probe) + "; "
                + loadedBeforeAgent + " classes loaded before the agent stay as they are";
        log.info(startLine);
        Telemetry.started(settings, ActivationFactsOf.decision(how, startLine, probe, settings));
        if (tsc != null) {
            Telemetry.tscClock(TscClockFigures.watch(tsc));
        }
        if (log.debugEnabled()) {
            // Guarded: the first String.format in a JVM loads the Formatter machinery, ~10 ms here.
            log.debug(String.format("start-up took %.1f ms (probe %.1f ms)", (System.nanoTime() - started) / 1e6,
                    probe.elapsedNanos / 1e6));
            if (probe.jna != null) {
                log.debug(String.format("JNA: %s in %.1f ms", probe.jna.available() ? "loaded privately" : probe.jna.problem,
                        probe.jna.elapsedNanos / 1e6));
            }
        }
        if (log.debugEnabled()) {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> log.debug("totals: " + stats), "fastclock-exit-report"));
        }
    }

    /** The contract asks for the millis clock's resolution to be reported at start-up. */
    private static String millisResolution(Decision decision, MachineProbe probe) {
        long resolutionNs = decision.millis().backend() == Backend.COARSE
                ? NativeClocks.clockGetres(NativeClocks.CLOCK_REALTIME_COARSE)
                : decision.millis().backend() == Backend.JNA_COARSE ? probe.measurements.coarseResolutionNs() : 1_000_000L;
        long lagNs = Math.max(decision.millis().lagNs(), 0);
        return "currentTimeMillis resolution " + Math.max(1, resolutionNs / 1_000_000L) + " ms, lag up to "
                + (lagNs + 999_999L) / 1_000_000L + " ms";
    }

    /** What the summary may not say: why the native library or the machine's files were unusable. */
    private static String nativeNote(MachineProbe probe) {
        StringBuilder note = new StringBuilder();
        if (!probe.nativeResult.loaded() && !probe.decision.summary().contains(probe.nativeResult.problem)) {
            note.append(" (").append(probe.nativeResult.problem).append(')');
        }
        if (probe.facts.currentClocksource() == null && !probe.facts.problems().isEmpty()) {
            note.append(" (").append(probe.facts.problems().get(0)).append(')');
        }
        return note.toString();
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
    static LongClock millisClock(Backend backend, TscClock tsc, LongClock jna) {
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

    static LongClock nanosClock(Backend backend, TscClock tsc) {
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
