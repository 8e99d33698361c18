package io.fastclock.agent;

import io.fastclock.config.OneLine;
import io.fastclock.config.Backend;
import io.fastclock.config.BackendNames;
import io.fastclock.rewrite.RewriteStats;
import io.fastclock.clock.RuntimeLog;
import io.fastclock.clock.TscClock;

/**
 * Keeps {@link AgentState}'s counts and TSC figures current while fastclock is active: a daemon
 * thread ("fastclock-state") refreshes them about once a second (it writes only what changed), and
 * a TSC fallback is published at once through the log the TSC clock warns with.
 */
final class LiveAgentState {
    static final long REFRESH_MILLIS = 1000;

    private static final Object LOCK = new Object();
    private static RewriteStats stats;
    private static RewriteStats jdkStats;
    private static TscClock tsc;
    private static Thread refresher;

    private LiveAgentState() {}

    /** Call sites are being rewritten: the backends, and counters refreshed from now on. */
    static void active(String reason, Backend millis, Backend nanos, String epoch, RewriteStats rewriteStats,
            RewriteStats jdkRewriteStats, TscClock tscClock) {
        synchronized (LOCK) {
            stats = rewriteStats;
            jdkStats = jdkRewriteStats;
            tsc = tscClock;
        }
        AgentState.set(AgentState.MILLIS, millis.settingName());
        AgentState.set(AgentState.NANOS, nanos.settingName());
        AgentState.set(AgentState.EPOCH, epoch);
        refresh();
        AgentState.set(AgentState.REASON, OneLine.withoutPrefix(reason));
        AgentState.set(AgentState.ACTIVE, "true");
        startRefresher();
    }

    /** The lag L currentTimeMillis states now, whole ms: at start, and each time it is restated. */
    static void millisLag(long lagMs) {
        AgentState.set(AgentState.MILLIS_LAG_MS, Long.toString(lagMs));
    }

    /** currentTimeMillis went back to the system clock for good (its coarse clock's lag grew past the cap). */
    static void millisOnSystemClock(String why) {
        AgentState.set(AgentState.MILLIS, BackendNames.SYSTEM);
        String epoch = AgentState.get(AgentState.EPOCH);
        if (BackendNames.COARSE.equals(epoch) || BackendNames.JNA_COARSE.equals(epoch)) {
            AgentState.set(AgentState.EPOCH, BackendNames.SYSTEM); // instant=coarse follows it (LagCheckedEpoch)
        }
        AgentState.set(AgentState.MILLIS_LAG_MS, "0");
        AgentState.set(AgentState.FALLBACK, why);
    }

    /** After a detach: the refresher stops, the verdict says what was restored. */
    static void detached(String line) {
        Thread t;
        synchronized (LOCK) {
            t = refresher;
            refresher = null; // what tells it to stop: an interrupt alone it takes for someone else's
            stats = null;
            jdkStats = null;
        }
        if (t != null) {
            t.interrupt();
        }
        CoarseLagWatch.stopRunning();
        refresh();
        AgentState.set(AgentState.MILLIS, BackendNames.SYSTEM);
        AgentState.set(AgentState.MILLIS_LAG_MS, "0");
        AgentState.set(AgentState.NANOS, BackendNames.SYSTEM);
        AgentState.set(AgentState.EPOCH, BackendNames.SYSTEM);
        AgentState.set(AgentState.ACTIVE, "false");
        AgentState.set(AgentState.REASON, line);
    }

    /** Wraps the log the TSC clock warns through, so that a fallback is published at once. */
    static RuntimeLog publishingFallbacks(RuntimeLog log) {
        return message -> {
            log.warn(message);
            try {
                refresh();
            } catch (RuntimeException e) {
                // a SecurityManager that forbids the properties: the line above said what matters
            }
        };
    }

    /** Publishes the current counts and TSC figures (cheap; only changed values are written). */
    static void refresh() {
        RewriteStats s;
        RewriteStats j;
        TscClock t;
        synchronized (LOCK) {
            s = stats;
            j = jdkStats;
            t = tsc;
        }
        if (s != null) {
            AgentState.set(AgentState.CLASSES, Long.toString(s.rewritten()));
            AgentState.set(AgentState.CALLSITES, Long.toString(s.callSites()));
        }
        if (j != null) {
            AgentState.set(AgentState.JDK_CLASSES, Long.toString(j.rewritten()));
            AgentState.set(AgentState.JDK_CALLSITES, Long.toString(j.callSites()));
        }
        if (t != null) {
            AgentState.set(AgentState.TSC_WORST_ERROR_NANOS, Long.toString(t.worstErrorNanos()));
            AgentState.set(AgentState.TSC_REANCHORS, Long.toString(t.reanchors()));
            AgentState.set(AgentState.TSC_LAST_RATE_CHANGE_PPM, Double.toString(Math.round(t.lastRateChangePpm() * 1000) / 1000.0));
            String fallback = t.fallbackReason();
            if (fallback != null) {
                AgentState.set(AgentState.FALLBACK, fallback);
            }
        }
    }

    private static void startRefresher() {
        synchronized (LOCK) {
            if (refresher != null) {
                return;
            }
            refresher = new Thread(LiveAgentState::refreshForever, "fastclock-state");
            refresher.setDaemon(true);
            refresher.start();
        }
    }

    /**
     * Runs until a detach replaces it. An interrupt from anyone else (an application that interrupts
     * every thread at shutdown, say) only wakes it early: sleep has cleared the flag, so it sleeps
     * again, and the figures stay current.
     */
    private static void refreshForever() {
        try {
            while (true) {
                try {
                    Thread.sleep(REFRESH_MILLIS);
                } catch (InterruptedException e) {
                    // detach interrupts it after clearing the field checked below; anyone else: carry on
                }
                synchronized (LOCK) {
                    if (refresher != Thread.currentThread()) {
                        return;
                    }
                }
                refresh();
            }
        } catch (RuntimeException e) {
            // never break the host for a figure in a system property
        }
    }
}
