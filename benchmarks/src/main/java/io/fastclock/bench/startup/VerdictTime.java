package io.fastclock.bench.startup;

import java.time.Duration;
import java.time.Instant;

/**
 * How long after the process started main began and the agent's verdict came (start=background):
 * prints "main MS" at once, then, given "await", polls fastclock.active and prints "verdict MS" (or
 * "verdict none" after ten seconds). The process start is the kernel's (ProcessHandle), at its 10 ms tick resolution.
 */
public final class VerdictTime {
    private VerdictTime() {}

    public static void main(String[] args) throws InterruptedException {
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
