package io.fastclock.it.apps.theft;

/** Stands for io.fastclock.entry.JarSnapshot in {@link FakeRuntimeSetup}'s signature (renamed with it). */
public final class FakeJarSnapshot {
    private FakeJarSnapshot() {}
}
