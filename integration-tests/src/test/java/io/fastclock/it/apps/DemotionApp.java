package io.fastclock.it.apps;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The TSC clock falls back while reader threads hammer the clocks. args: the fixture
 * available_clocksource the agent was pointed at (or "-": something else makes it fall back, and
 * the app only waits for it), the number of reader threads, and optionally how long after the
 * fallback line reads must be the system clock itself (ms, default 1: the floor is at most 20 us
 * ahead after a demotion; a clock that drifted may have led by milliseconds), and optionally how
 * long the TSC clock runs before the demotion (ms, default 1000).
 *
 * <p>After that while the app removes tsc from the file, as the kernel's watchdog would, at the
 * worst moment it can find: just after the agent re-read it (the file's access time moves on the
 * first read after a rewrite, so a fresh copy is put in place and the app waits for that read).
 * Where access times do not move (noatime), it demotes after waiting and says so. The fallback is
 * timestamped by a System.err wrapper: the agent logs through System.err as it is at that moment.
 *
 * <p>Every rewritten read is bracketed by two reads of the real clocks (method handles, which the
 * agent cannot rewrite). Printed as key=value lines, with the MBean's attributes last where it is
 * registered (jmx=on); the test decides.
 */
public final class DemotionApp {
    static final String FALLBACK_LINE = "TSC clock disabled";

    static volatile boolean stop;
    /** Reference nanos when the agent's fallback line reached System.err; 0 before. */
    static volatile long loggedAt;
    static final AtomicLong fallbackLines = new AtomicLong();

    // Per-run results, merged from the reader threads.
    static final AtomicLong published = new AtomicLong(Long.MIN_VALUE);
    static final AtomicLong backwardsSingleThread = new AtomicLong();
    static final AtomicLong backwardsAcrossThreads = new AtomicLong();
    static final AtomicLong worstDeviationNs = new AtomicLong();
    static final AtomicLong reads = new AtomicLong();
    static final AtomicLong readsBeforeFallback = new AtomicLong();
    static final AtomicLong postFallbackReads = new AtomicLong();
    static final AtomicLong postFallbackOutside = new AtomicLong();
    static final AtomicLong postFallbackWorstNs = new AtomicLong();
    static final AtomicLong millisWorstBehindMs = new AtomicLong(Long.MIN_VALUE);
    static final AtomicLong millisWorstAheadMs = new AtomicLong(Long.MIN_VALUE);

    /** After the fallback line, reads from this long on must be the system clock itself. */
    static long settleNanos = 1_000_000L;

    public static void main(String[] args) throws Exception {
        AgentVerdict.await();
        Path available = args[0].equals("-") ? null : Paths.get(args[0]);
        int threadCount = Integer.parseInt(args[1]);
        if (args.length > 2) {
            settleNanos = Long.parseLong(args[2]) * 1_000_000L;
        }
        long runBeforeDemotionMs = args.length > 3 ? Long.parseLong(args[3]) : 1000;
        System.out.println("backends=" + ReferenceClocks.backends().replace(' ', ','));
        PrintStream err = System.err;
        System.setErr(new PrintStream(err, true) {
            @Override
            public void println(String line) {
                if (line != null && line.contains(FALLBACK_LINE)) {
                    if (loggedAt == 0) {
                        loggedAt = ReferenceClocks.nanos();
                    }
                    fallbackLines.incrementAndGet();
                }
                super.println(line);
            }
        });

        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < threadCount; i++) {
            Thread t = new Thread(DemotionApp::read, "reader-" + i);
            threads.add(t);
            t.start();
        }
        Thread.sleep(runBeforeDemotionMs); // the TSC clock runs and re-anchors meanwhile
        long demotedAt = available == null ? 0 : demote(available);
        long deadline = ReferenceClocks.nanos() + 5_000_000_000L;
        while (loggedAt == 0 && ReferenceClocks.nanos() < deadline) {
            LockSupport.parkNanos(1_000_000);
        }
        Thread.sleep(1000); // readers keep going on the system clock
        stop = true;
        for (Thread t : threads) {
            t.join();
        }
        System.out.println("threads=" + threadCount);
        System.out.println("fallbackLines=" + fallbackLines.get());
        if (available != null) {
            System.out.println("fallbackLatencyUs=" + (loggedAt == 0 ? -1 : (loggedAt - demotedAt) / 1000));
        }
        System.out.println("reads=" + reads.get());
        System.out.println("readsBeforeFallback=" + readsBeforeFallback.get());
        System.out.println("backwardsSingleThread=" + backwardsSingleThread.get());
        System.out.println("backwardsAcrossThreads=" + backwardsAcrossThreads.get());
        System.out.println("worstDeviationNs=" + worstDeviationNs.get());
        System.out.println("postFallbackReads=" + postFallbackReads.get());
        System.out.println("postFallbackOutside=" + postFallbackOutside.get());
        System.out.println("postFallbackWorstNs=" + postFallbackWorstNs.get());
        System.out.println("millisWorstBehindMs=" + millisWorstBehindMs.get());
        System.out.println("millisWorstAheadMs=" + millisWorstAheadMs.get());
        // With jmx=on: the clock's own figures, frozen since the fallback (JfrIT compares the event's).
        ObserveApp.printRegisteredMBean();
    }

    /** Removes tsc from the file just after the agent re-read it; returns the reference nanos before. */
    private static long demote(Path available) throws Exception {
        // A fresh copy still listing tsc; its first read by the agent moves the access time.
        replace(available, "tsc hpet acpi_pm\n");
        long written = Files.readAttributes(available, BasicFileAttributes.class).lastModifiedTime().toMillis();
        // File times come from the coarse clock: a read in the same tick as the write leaves the
        // access time equal, and (relatime) the next read moves it; that one is then the re-check seen.
        long recheckSeenAgoMs = -1;
        long waitUntil = ReferenceClocks.nanos() + 3_000_000_000L;
        while (ReferenceClocks.nanos() < waitUntil) {
            long accessed = Files.readAttributes(available, BasicFileAttributes.class).lastAccessTime().toMillis();
            if (accessed > written) {
                recheckSeenAgoMs = ReferenceClocks.millis() - accessed;
                break;
            }
            LockSupport.parkNanos(100_000);
        }
        long demotedAt = ReferenceClocks.nanos();
        replace(available, "hpet acpi_pm\n");
        // How long before the demotion the agent's re-check read the file (file times are coarse:
        // give or take a kernel tick); -1 where access times do not move.
        System.out.println("recheckSeenAgoMs=" + recheckSeenAgoMs);
        return demotedAt;
    }

    /** Atomically, so a re-check never sees a half-written file. */
    private static void replace(Path target, String content) throws Exception {
        Path tmp = target.resolveSibling(target.getFileName() + ".new");
        Files.write(tmp, content.getBytes());
        Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /** One reader: nanoTime and currentTimeMillis (both rewritten) against the real clocks. */
    private static void read() {
        long previous = Long.MIN_VALUE;
        long n = 0;
        long before = 0;
        long worst = 0;
        long backwards = 0;
        long across = 0;
        long post = 0;
        long outside = 0;
        long postWorst = 0;
        long behindMs = Long.MIN_VALUE;
        long aheadMs = Long.MIN_VALUE;
        while (!stop) {
            long logged = loggedAt;
            long seen = published.get();
            long refBefore = ReferenceClocks.nanos();
            long now = System.nanoTime();
            long refAfter = ReferenceClocks.nanos();
            long msBefore = ReferenceClocks.millis();
            long ms = System.currentTimeMillis();
            long msAfter = ReferenceClocks.millis();
            n++;
            if (logged == 0) {
                before++;
            }
            long deviation = now < refBefore ? refBefore - now : now > refAfter ? now - refAfter : 0;
            worst = Math.max(worst, deviation);
            if (now < previous) {
                backwards++;
            }
            previous = now;
            if (now < seen) {
                across++;
            }
            long current;
            while ((current = published.get()) < now && !published.compareAndSet(current, now)) {
                // retry
            }
            if (logged != 0 && refBefore - logged > settleNanos) {
                post++;
                if (deviation != 0) {
                    outside++;
                    postWorst = Math.max(postWorst, deviation);
                }
            }
            behindMs = Math.max(behindMs, msBefore - ms);
            aheadMs = Math.max(aheadMs, ms - msAfter);
        }
        reads.addAndGet(n);
        readsBeforeFallback.addAndGet(before);
        backwardsSingleThread.addAndGet(backwards);
        backwardsAcrossThreads.addAndGet(across);
        postFallbackReads.addAndGet(post);
        postFallbackOutside.addAndGet(outside);
        accumulateMax(worstDeviationNs, worst);
        accumulateMax(postFallbackWorstNs, postWorst);
        accumulateMax(millisWorstBehindMs, behindMs);
        accumulateMax(millisWorstAheadMs, aheadMs);
    }

    private static void accumulateMax(AtomicLong target, long value) {
        target.accumulateAndGet(value, Math::max);
    }
}
