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

    private FastclockAgent() {}

    public static void premain(String args, Instrumentation inst) {
        start(args, inst, "premain");
    }

    public static void agentmain(String args, Instrumentation inst) {
        start(args, inst, "agentmain");
    }

    /** @param how premain or agentmain */
    private static void start(String args, Instrumentation inst, String how) {
        try {
            if (started || BootstrapInjector.alreadyInjected()) {
                System.err.println("fastclock: the agent is already installed in this JVM (given twice?); this copy does nothing");
                return;
            }
            started = true;
            Settings settings;
            try {
                settings = Settings.fromSystem(args);
            } catch (SettingsException e) {
                System.err.println(e.getMessage() + "; fastclock is off and the application runs on the system clocks");
                System.setProperty(Settings.ACTIVE_PROPERTY, "false");
                return;
            }
            // Not AgentLog here: it implements a runtime interface, which must not be loaded
            // before the runtime is in the boot loader.
            if (settings.mode() == Settings.Mode.OFF) {
                // off does nothing: no runtime in the boot loader, no change to java.base's exports
                System.setProperty(Settings.ACTIVE_PROPERTY, "false");
                if (settings.log() != Settings.Log.QUIET) {
                    System.err.println("fastclock: inactive: mode=off");
                }
                return;
            }
            String fastHere = FastSystemClocksCheck.inactiveLine(settings);
            if (fastHere != null) {
                System.setProperty(Settings.ACTIVE_PROPERTY, "false");
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
            System.err.println("fastclock: agent not started, the application runs on the system clocks: " + t);
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
