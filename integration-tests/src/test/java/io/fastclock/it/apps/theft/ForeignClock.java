package io.fastclock.it.apps.theft;

/** The application's own backend for ClockRegistry.install (its superclass renamed to the runtime's MillisClock). */
public final class ForeignClock extends StandInMillisClock {
    public static final long VALUE = 42;

    @Override
    public long currentTimeMillis() {
        return VALUE;
    }

    @Override
    public String name() {
        return "foreign";
    }
}
