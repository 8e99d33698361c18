package io.fastclock.it.apps.theft;

/**
 * Compiles {@link ForeignClock} without the agent's classes: TheftIT renames this name, in
 * ForeignClock's class file, to the runtime's {@code io.fastclock.runtime.LongClock}.
 */
public abstract class StandInLongClock {
    public abstract long read();

    public abstract String name();
}
