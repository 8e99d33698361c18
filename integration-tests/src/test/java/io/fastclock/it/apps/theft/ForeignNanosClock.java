package io.fastclock.it.apps.theft;

/** The application's own nanoTime backend for ClockRegistry.install (its superclass renamed to the runtime's NanosClock). */
public final class ForeignNanosClock extends StandInNanosClock {
    @Override
    public long nanoTime() {
        return ForeignClock.VALUE;
    }

    @Override
    public String name() {
        return "foreign";
    }
}
