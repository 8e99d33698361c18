package io.fastclock.it.apps.theft;

import java.lang.instrument.Instrumentation;
import java.lang.invoke.MethodHandles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * What the theft apps share: the fakes keep an Instrumentation under {@link #KEY} in the system
 * properties (the one place every class loader and module can reach), and the apps report it.
 */
public final class Loot {
    /** Where the fakes keep an Instrumentation they were handed. */
    public static final String KEY = "theft.loot";
    /** Where a fake from a jar swapped in after main began says it was defined (TheftIT's jar swap). */
    public static final String SWAPPED = "fastclock.it.swapped";
    /** The agent's thread under start=background; it ends once the agent has decided. */
    static final String BACKGROUND_THREAD = "fastclock-start";

    private Loot() {}

    /** Prints stolen=1 when a fake was handed an Instrumentation (and proves it works), else stolen=0. */
    static void report() {
        Object loot = System.getProperties().get(KEY);
        if (loot instanceof Instrumentation) {
            System.out.println("stolen=1");
            System.out.println("stolenClassesVisible=" + ((Instrumentation) loot).getAllLoadedClasses().length);
        } else {
            System.out.println("stolen=0");
        }
    }

    /** A class file of the fakes TheftIT wrote, by internal name. */
    static byte[] read(String dir, String internalName) throws Exception {
        return Files.readAllBytes(Paths.get(dir, internalName + ".class"));
    }

    /**
     * Defines {@code bytes} in the package and loader of {@code host} with a private lookup, and prints
     * defined=ok or what refused it (a LinkageError where the name is taken: not a failure). The host
     * is not initialised: its static initialiser runs no sooner than the attack.
     */
    static void define(String host, byte[] bytes) {
        try {
            Class<?> hostClass = Class.forName(host, false, Loot.class.getClassLoader());
            MethodHandles.privateLookupIn(hostClass, MethodHandles.lookup()).defineClass(bytes);
            System.out.println("defined=ok");
        } catch (Throwable t) {
            System.out.println("defined=" + String.valueOf(t).replace('\n', ' '));
        }
    }

    /** Until the agent's start=background thread has ended (its verdict given), at most 60 s. */
    static void awaitBackgroundStart() throws InterruptedException {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (backgroundThreadAlive() && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
    }

    private static boolean backgroundThreadAlive() {
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().equals(BACKGROUND_THREAD) && t.isAlive()) {
                return true;
            }
        }
        return false;
    }

    /** Prints waiting=1, then waits for the test to create {@code trigger}, at most 120 s. */
    static void awaitTrigger(String trigger) throws InterruptedException {
        System.out.println("waiting=1");
        System.out.flush();
        Path file = Paths.get(trigger);
        long deadline = System.nanoTime() + 120_000_000_000L;
        while (!Files.exists(file) && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
    }
}
