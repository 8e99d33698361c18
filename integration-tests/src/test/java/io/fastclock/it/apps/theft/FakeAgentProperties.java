package io.fastclock.it.apps.theft;

import java.util.Properties;
import java.util.function.Supplier;

/**
 * Template of a fake {@code io.fastclock.entry.state.JvmAgentProperties} (TheftIT renames it), the
 * class the entry hands jdk.internal.vm to: marks that it was defined ({@link Loot#SWAPPED}) and
 * answers an empty table. It names no class but the JDK's: its loader's parent is the boot loader.
 */
public final class FakeAgentProperties implements Supplier<Properties> {
    static {
        // The entry initialises the class it defines (older agents instantiated it): either marks it.
        System.getProperties().put(Loot.SWAPPED, "JvmAgentProperties");
    }

    public FakeAgentProperties() {
        System.getProperties().put(Loot.SWAPPED, "JvmAgentProperties");
    }

    @Override
    public Properties get() {
        return new Properties();
    }
}
