package io.fastclock.observe;

import jdk.jfr.FlightRecorder;
import jdk.jfr.FlightRecorderListener;

/**
 * The JFR side of {@link Telemetry}. Loaded only where the jdk.jfr module is in the boot layer, so
 * nothing here may be named by a class that is loaded elsewhere.
 *
 * <p>Nothing runs while no recording does: the events committed at once (activation, fallback,
 * retransform) stop at {@code shouldCommit()}, and the periodic ones are added only when JFR
 * starts ({@link FlightRecorderListener#recorderInitialized}), so a JVM that never records never
 * initialises JFR's metadata for fastclock.
 */
final class JfrEvents {
    /** The periodic TSC event fires at most this often, whatever period a recording asks for. */
    static final long MIN_HEALTH_INTERVAL_NANOS = 900_000_000L;

    private static volatile ActivationFacts facts;
    private static volatile TscFigures tsc;
    private static long lastHealthNanos;
    private static boolean listening;
    private static boolean periodicAdded;

    private JfrEvents() {}

    static void activated(ActivationFacts activation) {
        facts = activation;
        listen();
        commitActivation();
    }

    static synchronized void tscClock(TscFigures figures) {
        tsc = figures;
    }

    private static synchronized void listen() {
        if (!listening) {
            listening = true;
            FlightRecorder.addListener(new RecorderStarted());
        }
    }

    /** Runs when JFR initialises (at once if it already has): only then are the periodic events added. */
    private static final class RecorderStarted implements FlightRecorderListener {
        @Override
        public void recorderInitialized(FlightRecorder recorder) {
            addPeriodicEvents();
        }
    }

    static synchronized void addPeriodicEvents() {
        if (periodicAdded) {
            return;
        }
        periodicAdded = true;
        FlightRecorder.addPeriodicEvent(ActivationEvent.class, new Periodic(true));
        FlightRecorder.addPeriodicEvent(TscHealthEvent.class, new Periodic(false));
    }

    /** A class, not a method reference: the first lambda in a JVM bootstraps method handles (ms). */
    private static final class Periodic implements Runnable {
        private final boolean activation;

        Periodic(boolean activation) {
            this.activation = activation;
        }

        @Override
        public void run() {
            if (activation) {
                commitActivation();
            } else {
                commitTscHealth();
            }
        }
    }

    static void commitActivation() {
        ActivationFacts f = facts;
        ActivationEvent event = new ActivationEvent();
        if (f != null && event.shouldCommit()) {
            event.fill(f);
            event.commit();
        }
    }

    static void commitTscHealth() {
        TscFigures figures = tsc;
        if (figures == null || figures.fallbackReason() != null) {
            return;
        }
        long now = System.nanoTime();
        synchronized (JfrEvents.class) {
            if (lastHealthNanos != 0 && now - lastHealthNanos < MIN_HEALTH_INTERVAL_NANOS) {
                return;
            }
            lastHealthNanos = now;
        }
        TscHealthEvent event = new TscHealthEvent();
        if (event.shouldCommit()) {
            event.offset = figures.lastErrorNanos();
            event.worstOffset = figures.worstErrorNanos();
            event.rateChangePpm = figures.lastRateChangePpm();
            event.reanchors = figures.reanchors();
            event.lateExtensions = figures.lateExtensions();
            event.commit();
        }
    }

    static void fellBack(String reason, long errorNanos, TscFigures figures) {
        FallbackEvent event = new FallbackEvent();
        if (event.shouldCommit()) {
            event.reason = reason;
            event.error = errorNanos;
            event.lastError = figures.lastErrorNanos();
            event.worstError = figures.worstErrorNanos();
            event.reanchors = figures.reanchors();
            event.commit();
        }
    }

    static void retransformed(int classes, int callSites, long nanos) {
        RetransformEvent event = new RetransformEvent();
        if (event.shouldCommit()) {
            event.classes = classes;
            event.callSites = callSites;
            event.elapsed = nanos;
            event.commit();
        }
    }
}
