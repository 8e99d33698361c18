package io.fastclock.it.apps;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.Locale;

/**
 * Long-running measurement of the rewritten clocks against the JDK's (through ReferenceClocks).
 * Every second it samples for {@code sampleMs} (then sleeps the rest of the second, so it does not
 * hog a core of a shared machine) and appends one CSV row:
 *
 * <pre>
 * t_s, nanos_max_dev_ns, nanos_offset_ns, millis_behind_ms, millis_ahead_ms, rate_err_ppm, backwards, reads
 * </pre>
 *
 * nanos_max_dev_ns: worst distance of a rewritten nanoTime outside [before, after] of System.nanoTime;
 * nanos_offset_ns: signed offset (fast - reference midpoint) from the narrowest of 200 windows;
 * rate_err_ppm: rate of the rewritten nanoTime against System.nanoTime over the last interval
 * (from the narrow samples at its two ends); backwards: rewritten nanoTime reads below the previous.
 *
 * args: minutes csvFile [sampleMs]
 */
public final class SoakApp {
    public static void main(String[] args) throws Exception {
        double minutes = Double.parseDouble(args[0]);
        String csv = args[1];
        long sampleMs = args.length > 2 ? Long.parseLong(args[2]) : 200;
        System.out.println("backends=" + ReferenceClocks.backends().replace(' ', ','));
        long startRef = ReferenceClocks.nanos();
        long end = startRef + (long) (minutes * 60e9);
        long previousFast = Long.MIN_VALUE;
        long totalBackwards = 0;
        long worstNanos = 0;
        long worstBehind = 0;
        long worstAhead = Long.MIN_VALUE;
        double worstRate = 0;
        long rows = 0;
        try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(Paths.get(csv), StandardCharsets.UTF_8))) {
            out.println("t_s,nanos_max_dev_ns,nanos_offset_ns,millis_behind_ms,millis_ahead_ms,rate_err_ppm,backwards,reads");
            long[] last = ReferenceClocks.narrowSample();
            long second = startRef;
            while (ReferenceClocks.nanos() < end) {
                second += 1_000_000_000L;
                long sampleEnd = ReferenceClocks.nanos() + sampleMs * 1_000_000L;
                long maxDev = 0;
                long behind = 0;
                long ahead = Long.MIN_VALUE;
                long backwards = 0;
                long reads = 0;
                long before;
                while ((before = ReferenceClocks.nanos()) < sampleEnd) {
                    long fast = System.nanoTime();
                    long after = ReferenceClocks.nanos();
                    long dev = fast < before ? before - fast : (fast > after ? fast - after : 0);
                    maxDev = Math.max(maxDev, dev);
                    if (fast < previousFast) {
                        backwards++;
                    }
                    previousFast = fast;
                    long mBefore = ReferenceClocks.millis();
                    long fastMillis = System.currentTimeMillis();
                    long mAfter = ReferenceClocks.millis();
                    behind = Math.max(behind, mBefore - fastMillis);
                    ahead = Math.max(ahead, fastMillis - mAfter);
                    reads++;
                }
                long sleep = (second - ReferenceClocks.nanos()) / 1_000_000L;
                if (sleep > 0) {
                    Thread.sleep(sleep);
                }
                long[] now = ReferenceClocks.narrowSample();
                double rateErr = ((double) (now[1] - last[1]) / (now[0] - last[0]) - 1) * 1e6;
                last = now;
                double t = (now[0] - startRef) / 1e9;
                out.println(String.format(Locale.ROOT, "%.3f,%d,%d,%d,%d,%.3f,%d,%d", t, maxDev, now[1] - now[0],
                        behind, ahead, rateErr, backwards, reads));
                out.flush();
                rows++;
                totalBackwards += backwards;
                worstNanos = Math.max(worstNanos, maxDev);
                worstBehind = Math.max(worstBehind, behind);
                worstAhead = Math.max(worstAhead, ahead);
                if (Math.abs(rateErr) > Math.abs(worstRate)) {
                    worstRate = rateErr;
                }
            }
        }
        System.out.println("rows=" + rows);
        System.out.println("nanos.worstDeviationNs=" + worstNanos);
        System.out.println("nanos.backwards=" + totalBackwards);
        System.out.println("millis.worstBehindMs=" + worstBehind);
        System.out.println("millis.worstAheadMs=" + worstAhead);
        System.out.println(String.format(Locale.ROOT, "nanos.worstIntervalRateErrorPpm=%.3f", worstRate));
    }
}
