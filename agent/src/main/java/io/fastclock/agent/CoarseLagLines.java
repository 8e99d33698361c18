package io.fastclock.agent;

import io.fastclock.decide.Reasons;

/**
 * What the coarse clock's lag watch says: one stderr line when L is restated, one when
 * currentTimeMillis goes back to the system clock, and the published state (fastclock.millisLagMs,
 * fastclock.millis, fastclock.fallback; the MBean reads them) follows.
 */
final class CoarseLagLines implements CoarseLagWatch.Listener {
    private final AgentLog log;

    CoarseLagLines(AgentLog log) {
        this.log = log;
    }

    @Override
    public void restated(long behindNs, long oldLagNs, long newLagNs) {
        log.info("currentTimeMillis (coarse) was read " + Reasons.ms(behindNs) + " behind CLOCK_REALTIME,"
                + " beyond its stated lag of " + whole(oldLagNs) + " ms; lag restated: up to " + whole(newLagNs) + " ms");
        safely(() -> LiveAgentState.millisLag(whole(newLagNs)));
    }

    @Override
    public void movedToSystemClock(long behindNs, long lagNs, long capNs) {
        String why = "the coarse clock was read " + Reasons.ms(behindNs) + " behind CLOCK_REALTIME, beyond its"
                + " stated lag of " + whole(lagNs) + " ms and the " + whole(capNs) + " ms it may grow to";
        log.info("currentTimeMillis moved back to the system clock for good: " + why);
        safely(() -> LiveAgentState.millisOnSystemClock("currentTimeMillis: " + why));
    }

    private static long whole(long ns) {
        return (ns + 999_999L) / 1_000_000L;
    }

    private static void safely(Runnable publish) {
        try {
            publish.run();
        } catch (RuntimeException e) {
            // a SecurityManager that forbids the properties: the line said what matters
        }
    }
}
