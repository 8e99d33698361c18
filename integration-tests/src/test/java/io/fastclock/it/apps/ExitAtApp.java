package io.fastclock.it.apps;

/**
 * Reads both clocks for a given number of ms, then ends: by returning from main, or by
 * System.exit(3). With start=background the JVM ends at some moment of the agent's start.
 * args: ms, "return" | "exit"
 */
public final class ExitAtApp {
    private ExitAtApp() {}

    public static void main(String[] args) {
        long end = System.nanoTime() + Long.parseLong(args[0]) * 1_000_000L;
        long reads = 0;
        while (System.nanoTime() < end) {
            reads += System.currentTimeMillis() != 0 ? 1 : 0;
        }
        System.out.println("reads=" + reads);
        if (args[1].equals("exit")) {
            System.exit(3);
        }
    }
}
