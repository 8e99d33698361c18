package io.fastclock.it.apps.theft;

/** Template of an innocuous {@code io.fastclock.runtime.Seed} on the class path (TheftIT renames it). */
public final class Seed {
    private Seed() {}
}
