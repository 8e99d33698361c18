package io.fastclock.bench.startup;

import java.time.Duration;
import java.time.Instant;

/**
 * How long after the process started main began and the agent's verdict came (start=background):
 * prints "main MS" at once, then, given "await", polls fastclock.active and prints "verdict MS" (or
 * "verdict none" after ten seconds). The process start is the kernel's (ProcessHandle), at its 10 ms tick resolution.
 * "await N": N threads read both clocks without a pause from main's first instruction, as a program
 * that times everything does (beside a serialised slow clock they compete with the agent's measurement).
 */
public final class VerdictTime {
    private VerdictTime() {}

    private static void read() {
        long s = 0;
        while (true) {
            s += System.currentTimeMillis() + System.nanoTime();
            if (s == 42) {
                sink = s;
            }
        }
    }

    static volatile long sink;

    public static void main(String[] args) throws InterruptedException {
        int readers = args.length > 1 ? Integer.parseInt(args[1]) : 0;
        for (int i = 0; i < readers; i++) {
            Thread t = new Thread(VerdictTime::read, "reader-" + i);
            t.setDaemon(true);
            t.start();
        }
        Instant started = ProcessHandle.current().info().startInstant().orElseThrow();
        System.out.println("main " + Duration.between(started, Instant.now()).toMillis());
        if (args.length == 0 || !args[0].equals("await")) {
            return;
        }
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (System.getProperty("fastclock.active") == null && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        System.out.println(System.getProperty("fastclock.active") == null ? "verdict none"
                : "verdict " + Duration.between(started, Instant.now()).toMillis() + " " + System.getProperty("fastclock.active"));
    }
}
