package io.fastclock.observe;

import java.util.ArrayList;
import java.util.List;
import jdk.jfr.FlightRecorder;

/**
 * The JFR side of {@link Telemetry}. Loaded only where the jdk.jfr module is in the boot layer, so
 * nothing here may be named by a class that is loaded elsewhere.
 *
 * <p>Nothing of fastclock's JFR side runs before JFR itself has started: loading an event class
 * makes JFR read its metadata (on JDK 17 about 300 classes and 100-200 ms at start-up, measured),
 * and {@code FlightRecorder.addListener} alone loads some 40 classes. So the only call made in a
 * JVM that never records is {@link FlightRecorder#isInitialized()}, a field read: at start-up, and
 * from the observe watcher (every 10 ms for its first 10 s, then once a second). Once JFR is up (-XX:StartFlightRecording, or
 * {@code jcmd JFR.start} later), {@link #recorderUp()} commits the activation and adds the periodic
 * events; the fallback and retransform events are committed only when JFR is up.
 */
final class JfrEvents {
    /** The periodic TSC event fires at most this often, whatever period a recording asks for. */
    static final long MIN_HEALTH_INTERVAL_NANOS = 900_000_000L;

    private static volatile ActivationFacts facts;
    private static volatile TscFigures tsc;
    private static volatile boolean up;
    private static boolean healthAdded;
    private static long lastHealthNanos;
    /** Retransformations that ran before JFR first came up (premain runs before it on JDK 17): {classes, callSites, nanos}. */
    private static final List<long[]> EARLY_RETRANSFORMS = new ArrayList<>();
    private static final int MAX_EARLY_RETRANSFORMS = 16;

    private JfrEvents() {}

    /** Remembers what to say; says it now if JFR is up. @return whether it is */
    static boolean activated(ActivationFacts activation) {
        facts = activation;
        return recorderUp();
    }

    static void tscClock(TscFigures figures) {
        tsc = figures;
        if (up) {
            addHealthEvent();
        }
    }

    /** True once JFR has started in this JVM; the first time, adds the periodic events and commits the activation. */
    static boolean recorderUp() {
        if (up) {
            return true;
        }
        if (!FlightRecorder.isInitialized()) {
            return false;
        }
        synchronized (JfrEvents.class) {
            if (!up) {
                FlightRecorder.addPeriodicEvent(ActivationEvent.class, new Periodic(true));
                commitActivation();
                commitEarlyRetransforms();
                up = true;
            }
        }
        if (tsc != null) {
            addHealthEvent();
        }
        return true;
    }

    /**
     * Only where a TSC clock runs: registering an event type costs (JDK 17: tens to a hundred ms of
     * JFR's own class generation, on the watcher thread).
     */
    private static synchronized void addHealthEvent() {
        if (!healthAdded) {
            healthAdded = true;
            FlightRecorder.addPeriodicEvent(TscHealthEvent.class, new Periodic(false));
        }
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
                commitEarlyRetransforms();
            } else {
                commitTscHealth();
            }
        }
    }

    /**
     * The direct commit when JFR comes up and the beginChunk hook can both fire for the same new
     * recording (seen on JDK 11: 3 ms apart), so a second activation within this long is dropped.
     * Chunks of one recording are far longer apart.
     */
    static final long ACTIVATION_REPEAT_NANOS = 1_000_000_000L;
    private static long lastActivationNanos;

    static void commitActivation() {
        ActivationFacts f = facts;
        ActivationEvent event = new ActivationEvent();
        if (f == null || !event.shouldCommit()) {
            return;
        }
        long now = System.nanoTime();
        synchronized (JfrEvents.class) {
            if (lastActivationNanos != 0 && now - lastActivationNanos < ACTIVATION_REPEAT_NANOS) {
                return;
            }
            lastActivationNanos = now;
        }
        event.fill(f);
        event.commit();
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
        if (!recorderUp()) {
            return;
        }
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

    /** Committed now if JFR is up; before JFR has first come up, kept and committed when it does. */
    static void retransformed(int classes, int callSites, long nanos) {
        if (!recorderUp()) {
            synchronized (JfrEvents.class) {
                if (!up && EARLY_RETRANSFORMS.size() < MAX_EARLY_RETRANSFORMS) {
                    EARLY_RETRANSFORMS.add(new long[] {classes, callSites, nanos});
                    return;
                }
            }
            if (!up) {
                return;
            }
        }
        commitRetransform(classes, callSites, nanos);
    }

    /**
     * The retransformations kept from before JFR came up, once a recording takes them. JFR can be
     * initialised before the recording that -XX:StartFlightRecording asked for records (a loaded
     * host widens the gap), and an event committed then is lost: what is not taken stays for the
     * recording's first chunk (the activation's beginChunk hook calls this again).
     */
    private static synchronized void commitEarlyRetransforms() {
        if (EARLY_RETRANSFORMS.isEmpty() || !new RetransformEvent().shouldCommit()) {
            return;
        }
        for (long[] r : EARLY_RETRANSFORMS) {
            commitRetransform((int) r[0], (int) r[1], r[2]);
        }
        EARLY_RETRANSFORMS.clear();
    }

    private static void commitRetransform(int classes, int callSites, long nanos) {
        RetransformEvent event = new RetransformEvent();
        if (event.shouldCommit()) {
            event.classes = classes;
            event.callSites = callSites;
            event.elapsed = nanos;
            event.commit();
        }
    }
}
