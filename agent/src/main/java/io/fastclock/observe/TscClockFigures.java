package io.fastclock.observe;

import io.fastclock.clock.TscClock;
import io.fastclock.clock.TscFallbackListener;

/**
 * A running {@link TscClock} seen through {@link TscFigures}, and the relay of its fallback to
 * {@link Telemetry}. Loaded only when a TSC clock exists (it links to the runtime).
 */
public final class TscClockFigures implements TscFigures, TscFallbackListener {
    private final TscClock clock;
    private boolean reported;

    private TscClockFigures(TscClock clock) {
        this.clock = clock;
    }

    /** Listens to the clock's fallback; one that happened before is reported at once. */
    public static TscClockFigures watch(TscClock clock) {
        TscClockFigures figures = new TscClockFigures(clock);
        clock.addFallbackListener(figures);
        if (clock.hasFallenBack()) {
            figures.fellBack(clock.fallbackReason(), clock.fallbackErrorNanos());
        }
        return figures;
    }

    @Override
    public void fellBack(String reason, long errorNanos) {
        synchronized (this) {
            if (reported) {
                return;
            }
            reported = true;
        }
        Telemetry.fellBack(reason, errorNanos, this);
    }

    @Override
    public long lastErrorNanos() {
        return clock.lastErrorNanos();
    }

    @Override
    public long worstErrorNanos() {
        return clock.worstErrorNanos();
    }

    @Override
    public double lastRateChangePpm() {
        return clock.lastRateChangePpm();
    }

    @Override
    public long reanchors() {
        return clock.reanchors();
    }

    @Override
    public long lateExtensions() {
        return clock.lateExtensions();
    }

    @Override
    public String fallbackReason() {
        return clock.fallbackReason();
    }

    @Override
    public long fallbackErrorNanos() {
        return clock.fallbackErrorNanos();
    }
}
