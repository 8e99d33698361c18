package io.fastclock.it.apps.theft;

import java.lang.instrument.Instrumentation;

/**
 * Template of a fake {@code io.fastclock.entry.PrivateModule} (TheftIT renames it), with the calls
 * AgentEntry and BackgroundStart made on it at 447fee3: {@code PrivateModule.define(boolean).launch(Object[])},
 * the Instrumentation among the arguments.
 */
public final class FakePrivateModule {
    private FakePrivateModule() {}

    public static FakePrivateModule define(boolean commandLine) {
        return new FakePrivateModule();
    }

    public void launch(Object[] args) {
        for (Object arg : args) {
            if (arg instanceof Instrumentation) {
                System.getProperties().put(Loot.KEY, arg);
            }
        }
    }
}
