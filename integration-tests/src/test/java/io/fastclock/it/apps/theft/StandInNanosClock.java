package io.fastclock.it.apps.theft;

/**
 * Compiles {@link ForeignNanosClock} without the agent's classes: TheftIT renames this name, in
 * ForeignNanosClock's class file, to the runtime's {@code io.fastclock.runtime.NanosClock}.
 */
public abstract class StandInNanosClock {
    public abstract long nanoTime();

    public abstract String name();
}
