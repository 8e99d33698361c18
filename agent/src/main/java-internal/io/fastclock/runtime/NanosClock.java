package io.fastclock.runtime;

/** Monotonic time in nanoseconds, with {@code System.nanoTime()}'s origin: what it answers. */
public abstract class NanosClock {
    public abstract long nanoTime();

    /** Name of the backend, as the settings spell it. */
    public abstract String name();
}
