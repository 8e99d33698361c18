package io.fastclock.clock;

import java.util.concurrent.locks.LockSupport;

/**
 * Re-anchors a {@link TscClock} about four times a second (once per segment) and runs its trust
 * re-check every {@code recheck} period, waking for whichever is due first. Daemon, so it never
 * keeps the JVM alive; if it is starved, readers extend the clock at its last rate.
 */
public final class TscAnchorThread extends Thread {
    private final TscClock clock;
    private final RuntimeLog log;

    public TscAnchorThread(TscClock clock, RuntimeLog log) {
        super("fastclock-tsc-anchor");
        this.clock = clock;
        this.log = log;
        setDaemon(true);
        setPriority(Thread.MAX_PRIORITY);
    }

    @Override
    public void run() {
        try {
            long sleep;
            while ((sleep = clock.anchorRound()) >= 0) {
                LockSupport.parkNanos(sleep);
            }
        } catch (Throwable t) {
            clock.fallBack("the TSC anchor thread failed: " + t);
            log.warn("TSC anchor thread stopped: " + t);
        }
    }
}
