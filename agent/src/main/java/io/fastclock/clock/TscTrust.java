package io.fastclock.clock;

/** A re-check the TSC clock runs while the JVM runs (for example: is tsc still in available_clocksource?). */
public interface TscTrust {
    /** @return null while the TSC may still be trusted, else the reason in words. */
    String untrustedReason();

    TscTrust ALWAYS = () -> null;
}
