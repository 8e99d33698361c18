package io.fastclock.runtime;

/** One clock reading: epoch millis or monotonic nanos, depending on where it is installed. */
public abstract class LongClock {
    public abstract long read();

    /** Name of the backend, as the settings spell it. */
    public abstract String name();
}
