package io.fastclock.agent;

import io.fastclock.config.Settings;
import io.fastclock.config.SettingsException;
import io.fastclock.observe.ActivationFacts;
import io.fastclock.observe.Telemetry;
import io.fastclock.probe.MachineReader;
import java.lang.instrument.Instrumentation;
import java.util.ArrayList;

/**
 * Agent entry point (Premain-Class and Agent-Class). Whatever goes wrong in here, the application
 * starts and runs on the system clocks, with one line on stderr.
 */
public final class FastclockAgent {
    /** The same class serves every -javaagent copy of the jar (the system loader loads it once). */
    private static volatile boolean started;

    /** The agent argument of {@code java -jar fastclock.jar detach PID}. */
    static final String DETACH = "detach";

    private FastclockAgent() {}

    private static Settings.Log detachLogLevel() {
        try {
            return Settings.fromSystem(null).log();
        } catch (SettingsException e) {
            return Settings.Log.INFO;
        }
    }

    public static void premain(String args, Instrumentation inst) {
        start(args, inst, "premain");
    }

    public static void agentmain(String args, Instrumentation inst) {
        start(args, inst, "agentmain");
    }

    /** @param how premain or agentmain */
    private static void start(String args, Instrumentation inst, String how) {
        try {
            if (started && DETACH.equals(args) && how.equals("agentmain")) {
                // java -jar fastclock.jar detach PID: the runtime is in the boot loader already.
                AgentStartup.detach(detachLogLevel());
                return;
            }
            if (started || BootstrapInjector.alreadyInjected()) {
                System.err.println("fastclock: the agent is already installed in this JVM (given twice?); this copy does nothing");
                return;
            }
            started = true;
            AgentState.started(how);
            Settings settings;
            try {
                settings = Settings.fromSystem(args);
            } catch (SettingsException e) {
                String line = e.getMessage() + "; fastclock is off and the application runs on the system clocks";
                System.err.println(line);
                AgentState.inactive(line);
                return;
            }
            // Not AgentLog here: it implements a runtime interface, which must not be loaded
            // before the runtime is in the boot loader.
            if (settings.mode() == Settings.Mode.OFF) {
                // off does nothing: no runtime in the boot loader, no change to java.base's exports
                AgentState.inactive("inactive: mode=off");
                if (settings.log() != Settings.Log.QUIET) {
                    System.err.println("fastclock: inactive: mode=off");
                }
                return;
            }
            String fastHere = FastSystemClocksCheck.inactiveLine(settings);
            if (fastHere != null) {
                AgentState.inactive(fastHere);
                if (settings.log() != Settings.Log.QUIET) {
                    System.err.println(fastHere);
                }
                Telemetry.started(settings, ActivationFacts.inactive(how, ActivationFacts.withoutPrefix(fastHere),
                        new MachineReader(settings.sysfsRoot(), settings.procfsRoot()).readCurrentClocksource(new ArrayList<>()),
                        settings.thresholdNs()));
                return;
            }
            int loadedBefore = classesLoadedBeforeTheAgent(inst);
            BootstrapInjector injector = BootstrapInjector.inject(inst);
            // Loaded only now, so that it links to the runtime classes just defined in the boot loader.
            AgentStartup.start(settings, inst, injector.bootNativeLibraries(), loadedBefore, how);
        } catch (Throwable t) {
            String line = "fastclock: agent not started, the application runs on the system clocks: " + t;
            System.err.println(line);
            try {
                AgentState.inactive(line);
            } catch (Throwable ignored) {
                // the line above said it
            }
        }
    }

    /**
     * Counted before the probe and the runtime load anything, so the start line reports the host's
     * classes the transformer will never see, not the agent's own.
     */
    private static int classesLoadedBeforeTheAgent(Instrumentation inst) {
        int count = 0;
        for (Class<?> c : inst.getAllLoadedClasses()) {
            if (!c.getName().startsWith("io.fastclock.")) {
                count++;
            }
        }
        return count;
    }
}
