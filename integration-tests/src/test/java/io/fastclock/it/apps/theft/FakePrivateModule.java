package io.fastclock.it.apps.theft;

import java.lang.instrument.Instrumentation;
import java.util.Map;

/**
 * Template of a fake {@code io.fastclock.entry.PrivateModule} (TheftIT renames it), with the calls
 * AgentEntry and BackgroundStart make on it: {@code PrivateModule.define(boolean).launchAgent(...)},
 * the Instrumentation among the arguments, or {@code launchCommandLine(String[])}.
 */
public final class FakePrivateModule {
    private FakePrivateModule() {}

    public static FakePrivateModule define(boolean commandLine) {
        return new FakePrivateModule();
    }

    public void launchAgent(String entryPoint, String agentArgs, Instrumentation inst, Map<String, String> properties) {
        System.getProperties().put(Loot.KEY, inst);
    }

    public void launchCommandLine(String[] commandLine) {
        // no Instrumentation to take
    }
}
