package io.fastclock.bench;

import io.fastclock.clock.NativeClocks;
import java.util.Arrays;

/**
 * How long the probe's cross-CPU TSC check takes, call after call in one JVM, with the agent's own
 * limits (TscChecks: 5,000 reads a CPU, stop at 10 ms once each CPU has taken part in 50 handovers, at 250 ms whatever).
 * Load the machine from outside to see what busy CPUs do to it (DESIGN-NOTES 18):
 *
 * <pre>
 *   for i in 1 2 3 4; do timeout 60 sh -c 'while :; do :; done' & done
 *   java -cp agent/target/classes:BENCH_CLASSES io.fastclock.bench.CrossCpuCheckCost \
 *       native/target/classes/META-INF/native/linux-x86_64/libfastclock.so 200
 * </pre>
 * Prints the median, 90th percentile and largest time a check took, and how many checks would have
 * refused the TSC (a backward step, or a CPU short of its reads at the hard deadline).
 */
public final class CrossCpuCheckCost {
    public static void main(String[] args) {
        System.load(java.nio.file.Paths.get(args[0]).toAbsolutePath().toString());
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 200;
        long[] nanos = new long[rounds];
        long[] out = new long[6];
        int refused = 0;
        long fewestHandovers = Long.MAX_VALUE;
        for (int i = 0; i < rounds; i++) {
            long t0 = System.nanoTime();
            int rc = NativeClocks.crossCpuTscCheckBounded(5_000, 50, 10_000_000L, 250_000_000L, out);
            nanos[i] = System.nanoTime() - t0;
            fewestHandovers = Math.min(fewestHandovers, out[5]);
            if (rc != 0 || out[2] != 0 || (out[4] != 0 && out[5] < 50)) {
                refused++;
            }
        }
        Arrays.sort(nanos);
        System.out.printf("cross-CPU check, %d calls: median %.2f ms, p90 %.2f ms, max %.2f ms, refused %d,"
                + " fewest handovers of one CPU %d%n", rounds, nanos[rounds / 2] / 1e6, nanos[rounds * 9 / 10] / 1e6,
                nanos[rounds - 1] / 1e6, refused, fewestHandovers);
    }
}
