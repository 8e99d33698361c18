package io.fastclock.it.apps.theft;

import java.lang.invoke.MethodHandles;

/**
 * Races start=background's thread to the boot runtime's ClockRegistry.install, a public method of a
 * package exported to the agent's module alone: spins until the agent has defined ClockRegistry in the
 * boot loader (10 s at most), tries to install its own backends ({@link ForeignClock}, whose
 * superclasses TheftIT renamed to the runtime's MillisClock and NanosClock) through reflection, then,
 * once the agent has decided, checks the clocks with a new class. Args: the fakes' directory.
 */
public final class RegistryRaceApp {
    private RegistryRaceApp() {}

    public static void main(String[] args) throws Throwable {
        byte[] foreignClock = Loot.read(args[0], "io/fastclock/it/apps/theft/ForeignClock");
        byte[] foreignNanos = Loot.read(args[0], "io/fastclock/it/apps/theft/ForeignNanosClock");
        Class<?> registry = null;
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (registry == null && System.nanoTime() < deadline) {
            try {
                registry = Class.forName("io.fastclock.boot.ClockRegistry", false, null);
            } catch (ClassNotFoundException e) {
                Thread.onSpinWait();
            }
        }
        System.out.println("registryFound=" + (registry != null));
        if (registry != null) {
            Class<?> millisClock = Class.forName("io.fastclock.runtime.MillisClock", false, null);
            Class<?> nanosClock = Class.forName("io.fastclock.runtime.NanosClock", false, null);
            Object millis = MethodHandles.lookup().defineClass(foreignClock).getConstructor().newInstance();
            Object nanos = MethodHandles.lookup().defineClass(foreignNanos).getConstructor().newInstance();
            Class<?> epochClock = Class.forName("io.fastclock.runtime.EpochClock", false, null);
            Object accepted;
            try {
                accepted = registry.getMethod("install", millisClock, nanosClock, epochClock).invoke(null, millis, nanos, null);
            } catch (IllegalAccessException e) {
                accepted = "refused:" + e.getClass().getSimpleName();
            }
            System.out.println("installAccepted=" + accepted);
        }
        Loot.awaitBackgroundStart();
        ClockCheck.print();
        System.out.println("done=1");
    }
}
