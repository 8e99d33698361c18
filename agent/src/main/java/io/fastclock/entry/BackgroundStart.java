package io.fastclock.entry;

import java.lang.instrument.Instrumentation;
import java.util.Map;

/**
 * start=background: what the entry's start thread ({@value AgentEntry#THREAD_NAME}) does once the
 * helpers are defined, while main runs on the system clocks. The caller has been checked on premain's
 * own stack, and the settings' system properties copied there, before any application code ran.
 */
final class BackgroundStart {
    private BackgroundStart() {}

    /**
     * Answers alone where the system clocks are fast, else defines the module and hands it the start.
     * The module's FastclockAgent keeps quiet about what fails because the JVM is shutting down.
     *
     * @param properties the fastclock.* system properties as premain saw them
     */
    static void start(String args, Instrumentation inst, Map<String, String> properties) throws Exception {
        if (EntryState.inactiveOnFastClocks(EntrySettings.read(args, properties, System.getenv()), inst)) {
            return;
        }
        if (ModuleHelpers.REFUSAL != null) {
            System.err.println("fastclock: premain refused: " + AgentEntry.oneLine(ModuleHelpers.REFUSAL));
            return;
        }
        PrivateModule.define(false).launchAgent(AgentEntry.PREMAIN, args, inst, properties);
    }
}
