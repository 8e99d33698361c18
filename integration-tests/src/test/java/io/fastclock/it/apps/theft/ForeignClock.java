package io.fastclock.it.apps.theft;

/** The application's own backend for ClockRegistry.install (its superclass renamed to the runtime's LongClock). */
public final class ForeignClock extends StandInLongClock {
    public static final long VALUE = 42;

    @Override
    public long read() {
        return VALUE;
    }

    @Override
    public String name() {
        return "foreign";
    }
}
