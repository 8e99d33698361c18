package io.fastclock.it.apps;

/**
 * Spins until the agent publishes its verdict (fastclock.active, start=background), then halts the JVM
 * at once: no shutdown hook, no chance for the agent's thread to write anything after it published.
 * Prints {@code active=...} first only when the verdict never came (waits at most the given seconds).
 *
 * args: most seconds to wait
 */
public final class VerdictHaltApp {
    public static void main(String[] args) {
        long deadline = System.nanoTime() + Long.parseLong(args[0]) * 1_000_000_000L;
        while (System.getProperty("fastclock.active") == null) {
            if (System.nanoTime() - deadline > 0) {
                System.out.println("active=null");
                return;
            }
            Thread.onSpinWait();
        }
        Runtime.getRuntime().halt(0);
    }
}
