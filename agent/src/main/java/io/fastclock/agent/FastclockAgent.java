package io.fastclock.agent;

import java.lang.instrument.Instrumentation;

/**
 * Agent entry point (Premain-Class and Agent-Class). Whatever goes wrong in here, the application
 * starts and runs on the system clocks, with one line on stderr.
 */
public final class FastclockAgent {
    private FastclockAgent() {}

    public static void premain(String args, Instrumentation inst) {
        start(args, inst);
    }

    public static void agentmain(String args, Instrumentation inst) {
        start(args, inst);
    }

    private static void start(String args, Instrumentation inst) {
        try {
            if (BootstrapInjector.alreadyInjected()) {
                System.err.println("fastclock: the agent is already installed in this JVM (given twice?); this copy does nothing");
                return;
            }
            BootstrapInjector injector = BootstrapInjector.inject(inst);
            // Loaded only now, so that it links to the runtime classes just defined in the boot loader.
            AgentStartup.start(args, inst, injector.bootNativeLibraries());
        } catch (Throwable t) {
            System.err.println("fastclock: agent not started, the application runs on the system clocks: " + t);
        }
    }
}
