package io.fastclock.probe;

import io.fastclock.measure.TscChecks;
import io.fastclock.clock.RuntimeLog;
import io.fastclock.clock.TscAnchorThread;
import io.fastclock.clock.TscClock;
import io.fastclock.clock.TscTrust;

/** Builds a running {@link TscClock} from checks that passed, and starts its anchor thread. */
public final class TscClockStarter {
    private TscClockStarter() {}

    public static TscClock start(TscChecks checks, long recheckNanos, TscTrust trust, RuntimeLog log) {
        if (checks.calibration == null || !checks.calibration.converged) {
            throw new IllegalStateException("the TSC was not calibrated");
        }
        TscClock.Tuning tuning = new TscClock.Tuning();
        tuning.recheckNanos = recheckNanos;
        TscClock clock = new TscClock(checks.reads.nanos.tickSource(), checks.reads.millis.tickSource(), checks.calibration, tuning, trust, log);
        new TscAnchorThread(clock, log).start();
        return clock;
    }
}
