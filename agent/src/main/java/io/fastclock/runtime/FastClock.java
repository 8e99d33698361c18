package io.fastclock.runtime;

/** Placeholder: the entry points rewritten call sites link to. */
public final class FastClock {
    private FastClock() {}

    public static long currentTimeMillis() {
        return System.currentTimeMillis();
    }

    public static long nanoTime() {
        return System.nanoTime();
    }
}
