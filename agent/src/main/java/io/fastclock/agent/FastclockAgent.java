package io.fastclock.agent;

import io.fastclock.boot.RuntimeAccess;
import io.fastclock.config.OneLine;
import io.fastclock.config.Settings;
import io.fastclock.config.SettingsException;
import io.fastclock.observe.ActivationFacts;
import io.fastclock.observe.Telemetry;
import io.fastclock.decide.ActivationRules;
import io.fastclock.decide.FastSystemClocksCheck;
import io.fastclock.probe.MachineProbe;
import io.fastclock.probe.MachineReader;
import io.fastclock.decide.Decision;
import io.fastclock.decide.ProbedDecision;
import io.fastclock.decide.Reasons;
import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Map;
import java.util.function.Consumer;

/**
 * What premain and agentmain do (io.fastclock.entry.AgentEntry, the jar's Premain-Class and
 * Agent-Class, hands over through {@link Launch}). Whatever goes wrong in here, the application
 * starts and runs on the system clocks, with one line on stderr.
 */
public final class FastclockAgent {
    /** Per copy: each -javaagent or attach of the jar defines the agent's module anew ({@link EarlierCopy}). */
    private static volatile boolean started;
    /** The boot runtime this copy owns: premain's, or the one it defined; null before. */
    private static volatile Module runtime;
    /** The JVM's Instrumentation, for giving classes back after a failure. */
    private static volatile Instrumentation handedInst;

    /** How a start line ends when start=background decided it while main ran. */
    static final String BACKGROUND_NOTE = "; decided in the background";

    /** The agent argument of {@code java -jar fastclock.jar detach PID}. */
    static final String DETACH = "detach";

    private FastclockAgent() {}

    /** In the copy that started: restores the original code (java -jar fastclock.jar detach PID). */
    static void detachThisCopy() {
        AgentStartup.detach(detachLogLevel());
    }

    private static Settings.Log detachLogLevel() {
        try {
            return Settings.fromSystem(null).log();
        } catch (SettingsException e) {
            return Settings.Log.INFO;
        }
    }

    /**
     * Called by {@link Launch} once the JVM's own Instrumentation is checked. With
     * {@link Handoff#background}, premain's work on start=background's thread, while main runs: what
     * has loaded meanwhile is taken over as an attach takes over a running JVM, and the settings come
     * from the properties premain saw (an attach takes them from those the JVM was launched with, for
     * the same reason).
     */
    static void start(Handoff handoff) {
        String args = handoff.agentArgs;
        Instrumentation inst = handoff.inst;
        EntryPoint how = handoff.entryPoint;
        boolean background = handoff.background();
        try {
            Class<?>[] loaded = inst.getAllLoadedClasses();
            Module earlier = EarlierCopy.find(loaded, FastclockAgent.class.getModule());
            if (DETACH.equals(args) && how == EntryPoint.AGENTMAIN) {
                // java -jar fastclock.jar detach PID: the copy that started does the work.
                if (earlier == null) {
                    System.err.println(OneLine.PREFIX + "nothing to detach: fastclock is not loaded in this JVM");
                } else {
                    EarlierCopy.detach(earlier, inst);
                }
                return;
            }
            // premain's runtime, where premain set it up; a runtime another copy claimed means that copy runs
            Module runtime = RuntimeModule.existing();
            if (runtime != null) {
                RuntimeModule.open(inst, runtime);
            }
            if (earlier != null || started || runtime != null && !RuntimeAccess.claim()) {
                System.err.println(OneLine.PREFIX + "the agent is already installed in this JVM (given twice?); this copy does nothing");
                return;
            }
            started = true;
            FastclockAgent.runtime = runtime;
            handedInst = inst;
            AgentState.open(inst);
            AgentState.started(how.methodName());
            Settings settings;
            try {
                Map<String, String> properties = how == EntryPoint.AGENTMAIN ? LaunchProperties.fastclockOnes(inst)
                        : handoff.propertiesAtPremain;
                settings = properties != null ? Settings.parse(args, properties, System.getenv()) : Settings.fromSystem(args);
            } catch (SettingsException e) {
                String line = e.getMessage() + "; fastclock is off and the application runs on the system clocks";
                System.err.println(OneLine.escape(line));
                inactive(line, inst, new AgentLog(Settings.Log.INFO));
                return;
            }
            // Not AgentLog here: it implements a runtime interface, which must not be loaded
            // before the runtime is in the boot loader.
            if (ActivationRules.off(settings)) {
                // off does nothing but publish that: no runtime in the boot loader, and of java.base only
                // jdk.internal.vm exported, to this module alone (AgentState.open, for the agent properties)
                if (settings.log() != Settings.Log.QUIET) {
                    System.err.println(Reasons.OFF_LINE);
                }
                inactive(Reasons.OFF_LINE, inst, new AgentLog(settings.log()));
                return;
            }
            String fastHere = FastSystemClocksCheck.inactiveLine(settings);
            if (fastHere != null) {
                fastHere += background ? BACKGROUND_NOTE : "";
                if (settings.log() != Settings.Log.QUIET) {
                    System.err.println(OneLine.escape(fastHere));
                }
                inactive(fastHere, inst, new AgentLog(settings.log()), settings, ActivationFacts.inactive(how.methodName(),
                        OneLine.withoutPrefix(fastHere),
                        new MachineReader(settings.sysfsRoot(), settings.procfsRoot()).readCurrentClocksource(new ArrayList<>()),
                        settings.thresholdNs()));
                return;
            }
            int loadedBefore = classesLoadedBeforeTheAgent(loaded);
            NativeAccess.prepare(inst);
            decide(settings, inst, how, background, loadedBefore, 0, null);
        } catch (Throwable t) {
            notStarted(t, background);
        }
    }

    /**
     * Probes, decides and applies the decision. Where busy CPUs cut a measurement short that the
     * decision needed ("unmeasured" is not "slower"), it says so, leaves the application on the system
     * clocks, and measures again later on a thread of its own ({@link BusyRetry}); the last attempt's
     * decision stands. A later attempt takes over what has loaded meanwhile, as start=background does.
     *
     * @param attempt 0 for the first measurement
     * @param earlierNotice where an earlier attempt extracted the native library instead of java.io.tmpdir,
     *     or null: a later attempt finds it loaded and extracts nothing, and the start line says it once
     */
    static void decide(Settings settings, Instrumentation inst, EntryPoint how, boolean background, int loadedBefore,
            int attempt, String earlierNotice) throws Exception {
        AgentLog log = new AgentLog(settings.log());
        RuntimeNeeded runtimeNeeded = new RuntimeNeeded(inst);
        ProbedDecision probed = ProbedDecision.run(settings, runtimeNeeded, runtimeNeeded);
        MachineProbe probe = probed.probe();
        Decision decision = probed.decision();
        String extractionNotice = probe.extractionNotice != null ? probe.extractionNotice : earlierNotice;
        if (probed.limitedByBusyCpus() && attempt < BusyRetry.ATTEMPTS) {
            String line = "undecided: " + probe.busyReason + "; the application runs on the system clocks meanwhile,"
                    + " and fastclock measures again in " + BusyRetry.delayMillis(attempt) + " ms";
            if (attempt == 0 && !background) {
                log.info(line);
            } else {
                // start=background says nothing before its verdict (a JVM ending first ends as without
                // the agent); its start line says the measurement was repeated.
                log.debug(line);
            }
            AgentState.reason(line);
            BusyRetry.schedule(attempt, () -> {
                try {
                    decide(settings, inst, how, background, loadedBefore, attempt + 1, extractionNotice);
                } catch (Throwable t) {
                    notStarted(t, true);
                }
            });
            return;
        }
        boolean takeOver = background || attempt > 0;
        String note = (background ? BACKGROUND_NOTE : "") + (attempt > 0 ? BusyRetry.note(attempt, probe.busyReason) : "");
        if (extractionNotice != null) {
            log.info(extractionNotice);
        }
        for (String problem : probe.facts.problems()) {
            log.debug(problem);
        }
        for (String warning : decision.warnings()) {
            log.info(warning);
        }
        if (!decision.active()) {
            // Inactive: nothing stays rewritten (what premain rewrote gets its own bytes back).
            String line = decision.summary() + probed.nativeNote() + note;
            log.info(line);
            inactive(line, inst, log, settings, ActivationFactsOf.decision(how.methodName(), line, probed, settings));
            return;
        }
        AgentStartup.start(settings, inst, probed, log, loadedBefore, how, takeOver, note, runtime(inst));
    }

    /**
     * An inactive verdict: published, and whatever premain's transformer rewrote meanwhile given its
     * own bytes back (FastClock served it the JDK's clocks until now). Recorded before it is
     * published, as an active one is (AgentStartup).
     */
    private static void inactive(String line, Instrumentation inst, AgentLog log, Settings settings, ActivationFacts facts) {
        if (runtime != null) {
            Takeover.undo(inst, log);
        }
        Telemetry.started(settings, facts, AgentState.READER);
        AgentState.inactive(line);
    }

    /** An inactive verdict with nothing to record (off, or settings that could not be read). */
    private static void inactive(String line, Instrumentation inst, AgentLog log) {
        if (runtime != null) {
            Takeover.undo(inst, log);
        }
        AgentState.inactive(line);
    }

    /** The boot runtime: premain's, or defined now. */
    private static synchronized Module runtime(Instrumentation inst) {
        if (runtime == null) {
            runtime = RuntimeModule.define(inst);
            RuntimeAccess.claim();
        }
        return runtime;
    }

    /**
     * The runtime's types, for the probe, before JNA's adapter (a MillisClock) loads; and its API
     * exported to the adapter's module, where the runtime exports it to no named module (JDK 11).
     */
    private static final class RuntimeNeeded implements Runnable, Consumer<Module> {
        private final Instrumentation inst;

        RuntimeNeeded(Instrumentation inst) {
            this.inst = inst;
        }

        @Override
        public void run() {
            runtime(inst);
        }

        @Override
        public void accept(Module module) {
            Module runtime = runtime(inst);
            if (!runtime.isExported(BootRuntime.API, module)) {
                inst.redefineModule(runtime, Collections.emptySet(),
                        Collections.singletonMap(BootRuntime.API, Collections.singleton(module)), Collections.emptyMap(),
                        Collections.emptySet(), Collections.emptyMap());
            }
        }
    }

    /** @param background on a thread of the agent's own, while the application runs */
    private static void notStarted(Throwable t, boolean background) {
        if (background && ShutdownCheck.inProgress()) {
            return; // the JVM ended before the verdict: it ends as it would without the agent
        }
        String line = OneLine.PREFIX + "agent not started, the application runs on the system clocks: " + t;
        System.err.println(OneLine.escape(line));
        try {
            AgentState.inactive(line);
            if (runtime != null) {
                Takeover.undo(handedInst, new AgentLog(Settings.Log.INFO));
            }
        } catch (Throwable ignored) {
            // the line above said it
        }
    }

    /**
     * Counted before the probe and the runtime load anything, so the start line reports the host's
     * classes the transformer will never see, not the agent's own.
     */
    private static int classesLoadedBeforeTheAgent(Class<?>[] loaded) {
        int count = 0;
        for (Class<?> c : loaded) {
            if (!c.getName().startsWith("io.fastclock.")) {
                count++;
            }
        }
        return count;
    }
}
