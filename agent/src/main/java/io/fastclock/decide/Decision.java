package io.fastclock.decide;

import io.fastclock.config.Backend;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** What the agent will do for each clock, with warnings and the one-line summary. Immutable. */
public final class Decision {
    private final Choice millis;
    private final Choice nanos;
    private final List<String> warnings;
    private final String summary;

    public Decision(Choice millis, Choice nanos, List<String> warnings, String summary) {
        this.millis = millis;
        this.nanos = nanos;
        this.warnings = Collections.unmodifiableList(new ArrayList<>(warnings));
        this.summary = summary;
    }

    /** The choice for System.currentTimeMillis. */
    public Choice millis() {
        return millis;
    }

    /** The choice for System.nanoTime. */
    public Choice nanos() {
        return nanos;
    }

    /** Lines to print on stderr (unless log=quiet) besides the summary. */
    public List<String> warnings() {
        return warnings;
    }

    /** Whether anything is rewritten: either clock is on a non-system backend. */
    public boolean active() {
        return millis.backend() != Backend.SYSTEM || nanos.backend() != Backend.SYSTEM;
    }

    /** Whether a clock's backend is to be confirmed by a later measurement ({@link Choice#unconfirmed}). */
    public boolean unconfirmed() {
        return millis.unconfirmed() || nanos.unconfirmed();
    }

    /** The one line printed on stderr at start-up. */
    public String summary() {
        return summary;
    }

    @Override
    public String toString() {
        return summary + "\n  currentTimeMillis: " + millis + "\n  nanoTime: " + nanos + "\n  warnings: " + warnings;
    }
}
