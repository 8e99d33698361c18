package io.fastclock.runtime;

/** The JDK's own currentTimeMillis. */
public final class SystemMillis extends LongClock {
    @Override
    public long read() {
        return System.currentTimeMillis();
    }

    @Override
    public String name() {
        return "system";
    }
}
