package io.fastclock.decide;

import io.fastclock.config.Backend;

/** The backend chosen for one clock, why, and the lag it states. Immutable. */
public final class Choice {
    private final Backend backend;
    private final String reason;
    private final long lagNs;
    /** Taken without its cost from compiled Java, which busy CPUs kept from being measured: measured again later. */
    private final boolean unconfirmed;

    /**
     * @param reason a full sentence a person can read, with the numbers used
     * @param lagNs  the stated lag L: how far behind the system clock a read may be. For
     *               currentTimeMillis: coarse and jna-coarse 2 x the coarse resolution, tsc 1 ms,
     *               system 0. For nanoTime only a coarse clock states a lag (2 x its resolution);
     *               the TSC clock is held to the contract's 100 us tracking bound instead, so 0.
     */
    public Choice(Backend backend, String reason, long lagNs) {
        this(backend, reason, lagNs, false);
    }

    Choice(Backend backend, String reason, long lagNs, boolean unconfirmed) {
        if (backend == null || reason == null) {
            throw new NullPointerException("backend and reason are required");
        }
        this.backend = backend;
        this.reason = reason;
        this.lagNs = lagNs;
        this.unconfirmed = unconfirmed;
    }

    /** The system clock, for the reason given: it states no lag. */
    static Choice system(String reason) {
        return new Choice(Backend.SYSTEM, reason, 0);
    }

    public Backend backend() {
        return backend;
    }

    public String reason() {
        return reason;
    }

    public long lagNs() {
        return lagNs;
    }

    /**
     * Whether the backend was taken though its cost from compiled Java was not measured (busy CPUs),
     * against a system clock dear enough that no JNI call makes up the difference
     * ({@code ChoiceRules.unconfirmed}): the agent measures it again and moves back to the system clock
     * if it is slower after all.
     */
    public boolean unconfirmed() {
        return unconfirmed;
    }

    @Override
    public String toString() {
        return backend.settingName() + " (" + reason + ")";
    }
}
