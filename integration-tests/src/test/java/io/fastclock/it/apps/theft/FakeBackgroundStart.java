package io.fastclock.it.apps.theft;

import java.lang.instrument.Instrumentation;
import java.util.Map;

/**
 * Template of a fake {@code io.fastclock.entry.BackgroundStart} (TheftIT renames it), with the call
 * AgentEntry's start thread makes on it: {@code BackgroundStart.start(String, Instrumentation, Map)}.
 */
public final class FakeBackgroundStart {
    private FakeBackgroundStart() {}

    public static void start(String args, Instrumentation inst, Map<String, String> properties) {
        System.getProperties().put(Loot.KEY, inst);
    }
}
