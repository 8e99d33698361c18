package io.fastclock.it.apps.theft;

/**
 * Compiles {@link ForeignClock} without the agent's classes: TheftIT renames this name, in
 * ForeignClock's class file, to the runtime's {@code io.fastclock.runtime.MillisClock}.
 */
public abstract class StandInMillisClock {
    public abstract long currentTimeMillis();

    public abstract String name();
}
