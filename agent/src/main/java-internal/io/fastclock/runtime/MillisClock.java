package io.fastclock.runtime;

/** Epoch time in milliseconds: what {@code System.currentTimeMillis()} answers. */
public abstract class MillisClock {
    public abstract long currentTimeMillis();

    /** Name of the backend, as the settings spell it. */
    public abstract String name();
}
