package io.fastclock.clock;

import java.util.concurrent.locks.LockSupport;

/**
 * Re-anchors a {@link TscClock} about four times a second (once per segment; more often while its
 * first baseline is too short for its samples) and runs its trust re-check every {@code recheck}
 * period, waking for whichever is due first. Daemon, so it never keeps the JVM alive; if it is
 * starved, readers extend the clock at its last rate.
 *
 * <p>An interrupt is not addressed to it (an application that interrupts every thread at shutdown,
 * say): the flag is cleared and the thread carries on. Left set, parkNanos would return at once
 * forever and the thread would spin on a core; ending would leave the clock unchecked.
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
                Thread.interrupted(); // an early wake-up only: the next round sleeps again until due
            }
        } catch (Throwable t) {
            clock.fallBack("the TSC anchor thread failed: " + t);
            log.warn("TSC anchor thread stopped: " + t);
        }
    }
}
