package io.fastclock.it.apps.theft;

import java.lang.instrument.Instrumentation;
import java.util.function.Function;

/**
 * Template of a fake {@code io.fastclock.agent.Launch}, the agent module's service (TheftIT renames
 * it): keeps any Instrumentation it is handed where the application reads it back ({@link Loot}).
 * It names no class of the application: it runs in a module that reads only the JDK's.
 */
public final class FakeLaunch implements Function<Object[], Object> {
    public FakeLaunch() {}

    @Override
    public Object apply(Object[] args) {
        for (Object arg : args) {
            if (arg instanceof Instrumentation) {
                System.getProperties().put(Loot.KEY, arg);
            }
        }
        return null;
    }
}
