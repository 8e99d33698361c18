package io.fastclock.config;

/** The clock reads fastclock can serve: currentTimeMillis's, nanoTime's, and java.time's epoch read. */
public enum ClockRead {
    MILLIS,
    NANOS,
    EPOCH
}
