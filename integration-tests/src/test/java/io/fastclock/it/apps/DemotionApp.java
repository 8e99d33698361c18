package io.fastclock.it.apps;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * Reads nanoTime in a loop while, after a second, it removes tsc from the fixture
 * available_clocksource the agent was pointed at (args[0]), as the kernel's watchdog would. Every
 * rewritten read is bracketed by two reads of the real System.nanoTime; how far it falls outside
 * them is its deviation, before, during and after the fallback.
 */
public final class DemotionApp {
    public static void main(String[] args) throws Exception {
        Path available = Paths.get(args[0]);
        long start = ReferenceClocks.nanos();
        long previous = System.nanoTime();
        long backwards = 0;
        boolean demoted = false;
        long demotedAt = 0;
        long worstDeviation = 0;
        while (ReferenceClocks.nanos() - start < 3_500_000_000L) {
            long before = ReferenceClocks.nanos();
            long now = System.nanoTime();
            long after = ReferenceClocks.nanos();
            worstDeviation = Math.max(worstDeviation, Math.max(now - after, before - now));
            if (now < previous) {
                backwards++;
            }
            previous = now;
            if (!demoted && ReferenceClocks.nanos() - start > 1_000_000_000L) {
                Files.write(available, "hpet acpi_pm\n".getBytes());
                demoted = true;
                demotedAt = ReferenceClocks.nanos();
            }
        }
        long after = System.nanoTime();
        System.out.println("backwards=" + backwards);
        System.out.println("worstDeviationNs=" + worstDeviation);
        System.out.println("finalDeviationNs=" + Math.abs(after - ReferenceClocks.nanos()));
        System.out.println("demotedForMs=" + (ReferenceClocks.nanos() - demotedAt) / 1_000_000);
    }
}
