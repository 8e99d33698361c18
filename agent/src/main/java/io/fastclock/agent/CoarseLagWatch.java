package io.fastclock.agent;

import io.fastclock.clock.LagCheckedMillis;
import io.fastclock.measure.MillisLagMeter;
import io.fastclock.decide.CoarseLag;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * Keeps checking, while the application runs, that the coarse currentTimeMillis stays within the
 * lag L it stated (millis.lag in docs/CONTRACT.md): a daemon thread ("fastclock-millis-lag") reads the
 * coarse clock between two reads of CLOCK_REALTIME about {@link #SAMPLES_PER_SECOND} times a second,
 * at a random phase of the tick, so that late ticks are seen. A read further behind than L restates
 * L ({@link CoarseLag#afterRead}: that read's lag plus a tick) up to the cap, with one line; beyond
 * the cap currentTimeMillis goes back to the system clock for good, with one line, and the thread ends.
 *
 * <p>An interrupt is not addressed to it (an application that interrupts every thread at shutdown,
 * say): the flag is cleared and it carries on, so parkNanos never returns at once in a loop.
 */
final class CoarseLagWatch implements Runnable {
    static final int SAMPLES_PER_SECOND = 20;
    static final String THREAD_NAME = "fastclock-millis-lag";

    /** Told on the watch's thread; must not block. */
    interface Listener {
        void restated(long behindNs, long oldLagNs, long newLagNs);

        void movedToSystemClock(long behindNs, long lagNs, long capNs);
    }

    /** The running watch, if any (one per agent copy): a detach stops it. */
    private static volatile CoarseLagWatch running;

    private final LagCheckedMillis clock;
    private final LongSupplier referenceNs;
    private final long resolutionNs;
    private final Listener listener;
    private long statedNs;
    private volatile boolean stopped;

    CoarseLagWatch(LagCheckedMillis clock, LongSupplier referenceNs, long resolutionNs, long statedNs, Listener listener) {
        this.clock = clock;
        this.referenceNs = referenceNs;
        this.resolutionNs = resolutionNs;
        this.statedNs = statedNs;
        this.listener = listener;
    }

    static Thread start(CoarseLagWatch watch) {
        running = watch;
        Thread t = new Thread(watch, THREAD_NAME);
        t.setDaemon(true);
        t.start();
        return t;
    }

    @Override
    public void run() {
        try {
            long periodNs = 1_000_000_000L / SAMPLES_PER_SECOND;
            while (!stopped && sample()) {
                LockSupport.parkNanos(periodNs + ThreadLocalRandom.current().nextLong(Math.max(1, resolutionNs)));
                Thread.interrupted(); // an early wake-up only: the next sample comes a period later
            }
        } catch (Throwable t) {
            // The clock keeps its last stated L; nothing here may break the host.
        }
    }

    /**
     * After a detach the application's calls no longer reach the coarse clock: the watch ends at its
     * next wake-up and says nothing more.
     */
    static void stopRunning() {
        CoarseLagWatch w = running;
        if (w != null) {
            w.stopped = true;
            running = null;
        }
    }

    /** One bracketed read; false once the clock went back to the system clock. */
    boolean sample() {
        long before = referenceNs.getAsLong();
        long millis = clock.readCoarse();
        long after = referenceNs.getAsLong();
        if (before < 0 || after < 0) {
            return true;
        }
        return judge(MillisLagMeter.behindNs(before, millis));
    }

    /** What one read's lag behind the reference does to L; false once on the system clock. */
    boolean judge(long behindNs) {
        long next = CoarseLag.afterRead(resolutionNs, statedNs, behindNs);
        if (next == statedNs) {
            return true;
        }
        if (next == CoarseLag.NONE) {
            clock.moveToSystemClock();
            listener.movedToSystemClock(behindNs, statedNs, CoarseLag.capNs(resolutionNs));
            return false;
        }
        long old = statedNs;
        statedNs = next;
        listener.restated(behindNs, old, next);
        return true;
    }

    long statedNs() {
        return statedNs;
    }
}
