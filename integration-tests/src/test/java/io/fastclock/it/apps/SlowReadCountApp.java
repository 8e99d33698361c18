package io.fastclock.it.apps;

/**
 * System.nanoTime() N times (args[0]) in the counted window, after a warm-up outside it; prints
 * what a reader needs to judge the count (the backends, and a sum so nothing is optimised away).
 * args[2] = millis reads System.currentTimeMillis() instead: on JDK 11, HotSpot reads
 * CLOCK_MONOTONIC through librt's clock_gettime found with dlsym, which the simulator's LD_PRELOAD
 * does not see, so there only millis (gettimeofday) reaches the simulated slow clock.
 */
public final class SlowReadCountApp {
    private static long sink;

    public static void main(String[] args) {
        int reads = Integer.parseInt(args[0]);
        for (int i = 0; i < 20_000; i++) {
            readNanos();
        }
        boolean millis = args.length > 2 && args[2].equals("millis");
        for (int i = 0; i < 20_000; i++) {
            readMillis();
        }
        CountedWindow.run(reads, millis ? SlowReadCountApp::readMillis : SlowReadCountApp::readNanos);
        System.out.println("backends=" + ReferenceClocks.backends().replace(' ', ','));
        System.out.println("sinkNonZero=" + (sink != 0));
        if (args.length > 1 && args[1].equals("exit")) {
            System.exit(0);
        }
    }

    private static void readMillis() {
        sink += System.currentTimeMillis();
    }

    private static void readNanos() {
        sink += System.nanoTime();
    }
}
