package io.fastclock.it.apps.theft;

import java.lang.instrument.Instrumentation;

/**
 * Template of a fake {@code io.fastclock.entry.RuntimeSetup} (HookedPropertiesIT renames it, and
 * {@link FakeJarSnapshot} to {@code io.fastclock.entry.JarSnapshot}), with the call premain makes on it.
 * Defined into the entry's own loader it sees only the JDK: it keeps what it is handed under
 * {@link Loot#KEY}'s name, spelled out.
 */
public final class FakeRuntimeSetup {
    private FakeRuntimeSetup() {}

    public static void install(Instrumentation inst, FakeJarSnapshot jar, String[] settings) {
        System.getProperties().put("theft.loot", inst);
    }
}
