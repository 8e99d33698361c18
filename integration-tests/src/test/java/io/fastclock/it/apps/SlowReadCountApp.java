package io.fastclock.it.apps;

/**
 * System.nanoTime() N times (args[0]) in the counted window, after a warm-up outside it; prints
 * what a reader needs to judge the count (the backends, and a sum so nothing is optimised away).
 */
public final class SlowReadCountApp {
    private static long sink;

    public static void main(String[] args) {
        AgentVerdict.await();
        int reads = Integer.parseInt(args[0]);
        for (int i = 0; i < 20_000; i++) {
            readNanos();
        }
        CountedWindow.run(reads, SlowReadCountApp::readNanos);
        System.out.println("backends=" + ReferenceClocks.backends().replace(' ', ','));
        System.out.println("sinkNonZero=" + (sink != 0));
        if (args.length > 1 && args[1].equals("exit")) {
            System.exit(0);
        }
    }

    private static void readNanos() {
        sink += System.nanoTime();
    }
}
