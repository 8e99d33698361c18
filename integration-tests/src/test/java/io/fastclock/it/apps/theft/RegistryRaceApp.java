package io.fastclock.it.apps.theft;

import java.lang.invoke.MethodHandles;

/**
 * Races start=background's thread to the runtime's public ClockRegistry.install: spins until the agent
 * has defined ClockRegistry in the boot loader, installs its own backends ({@link ForeignClock}, whose
 * superclass TheftIT renamed to the runtime's LongClock), then, once the agent has decided, checks the
 * clocks with a new class. Args: the fakes' directory.
 */
public final class RegistryRaceApp {
    private RegistryRaceApp() {}

    public static void main(String[] args) throws Throwable {
        byte[] foreignClock = Loot.read(args[0], "io/fastclock/it/apps/theft/ForeignClock");
        Class<?> registry = null;
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (registry == null && System.nanoTime() < deadline) {
            try {
                registry = Class.forName("io.fastclock.runtime.ClockRegistry", false, null);
            } catch (ClassNotFoundException e) {
                Thread.onSpinWait();
            }
        }
        System.out.println("registryFound=" + (registry != null));
        if (registry != null) {
            Class<?> longClock = Class.forName("io.fastclock.runtime.LongClock", false, null);
            Object clock = MethodHandles.lookup().defineClass(foreignClock).getConstructor().newInstance();
            Object accepted = registry.getMethod("install", longClock, longClock).invoke(null, clock, clock);
            System.out.println("installAccepted=" + accepted);
        }
        Loot.awaitBackgroundStart();
        ClockCheck.print();
        System.out.println("done=1");
    }
}
