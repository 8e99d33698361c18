package io.fastclock.it.apps;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The clock contract while the machine is overloaded: {@code busy} threads spin (half of them
 * also hammering the rewritten clocks) on top of {@code checkers} threads that check every
 * rewritten read against the JDK's clocks:
 *
 * <ul>
 *   <li>nanoTime never below the previous read of the same thread, nor below a value another
 *       thread published before the read (shared max, as ContractApp does);
 *   <li>nanoTime within [before - x, after + x] of System.nanoTime: x is printed as the worst
 *       deviation (preemption widens the window, it does not create deviation);
 *   <li>currentTimeMillis within [before - x, after + y] of System.currentTimeMillis.
 * </ul>
 *
 * args: seconds busy checkers
 */
public final class LoadApp {
    static volatile boolean stop;
    static volatile long sink;

    public static void main(String[] args) throws Exception {
        double seconds = Double.parseDouble(args[0]);
        int busy = Integer.parseInt(args[1]);
        int checkers = Integer.parseInt(args[2]);
        AgentVerdict.await();
        System.out.println("backends=" + ReferenceClocks.backends().replace(' ', ','));
        System.out.println("cpus=" + Runtime.getRuntime().availableProcessors());
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < busy; i++) {
            boolean clocks = i % 2 == 0;
            threads.add(new Thread(() -> {
                long x = 0;
                while (!stop) {
                    for (int k = 0; k < 10_000; k++) {
                        x = x * 6364136223846793005L + (clocks ? System.nanoTime() ^ System.currentTimeMillis() : k);
                    }
                }
                sink = x;
            }, "busy-" + i));
        }
        AtomicLong published = new AtomicLong(Long.MIN_VALUE);
        AtomicLong crossBackwards = new AtomicLong();
        AtomicLong singleBackwards = new AtomicLong();
        AtomicLong worstNanos = new AtomicLong();
        AtomicLong worstBehind = new AtomicLong();
        AtomicLong worstAhead = new AtomicLong(Long.MIN_VALUE);
        AtomicLong nanosOver10us = new AtomicLong();
        AtomicLong reads = new AtomicLong();
        for (int i = 0; i < checkers; i++) {
            threads.add(new Thread(() -> {
                long previous = Long.MIN_VALUE;
                long worst = 0;
                long behind = 0;
                long ahead = Long.MIN_VALUE;
                long n = 0;
                long over = 0;
                while (!stop) {
                    for (int k = 0; k < 1000; k++) {
                        long seen = published.get();
                        long before = ReferenceClocks.nanos();
                        long fast = System.nanoTime();
                        long after = ReferenceClocks.nanos();
                        long dev = fast < before ? before - fast : (fast > after ? fast - after : 0);
                        if (dev > worst) {
                            worst = dev;
                        }
                        if (dev > 10_000) {
                            over++;
                        }
                        if (fast < previous) {
                            singleBackwards.incrementAndGet();
                        }
                        previous = fast;
                        if (fast < seen) {
                            crossBackwards.incrementAndGet();
                        }
                        long current;
                        while ((current = published.get()) < fast && !published.compareAndSet(current, fast)) {
                            // retry
                        }
                        long mBefore = ReferenceClocks.millis();
                        long fastMillis = System.currentTimeMillis();
                        long mAfter = ReferenceClocks.millis();
                        behind = Math.max(behind, mBefore - fastMillis);
                        ahead = Math.max(ahead, fastMillis - mAfter);
                    }
                    n += 1000;
                }
                reads.addAndGet(n);
                nanosOver10us.addAndGet(over);
                worstNanos.accumulateAndGet(worst, Math::max);
                worstBehind.accumulateAndGet(behind, Math::max);
                worstAhead.accumulateAndGet(ahead, Math::max);
            }, "checker-" + i));
        }
        for (Thread t : threads) {
            t.setUncaughtExceptionHandler((th, e) -> thrown.compareAndSet(null, e));
            t.start();
        }
        Thread.sleep((long) (seconds * 1000));
        stop = true;
        for (Thread t : threads) {
            t.join();
        }
        System.out.println("reads=" + reads.get());
        System.out.println("nanos.worstDeviationNs=" + worstNanos.get());
        System.out.println("nanos.readsOver10us=" + nanosOver10us.get());
        System.out.println("nanos.backwardsSingleThread=" + singleBackwards.get());
        System.out.println("nanos.backwardsAcrossThreads=" + crossBackwards.get());
        System.out.println("millis.worstBehindMs=" + worstBehind.get());
        System.out.println("millis.worstAheadMs=" + worstAhead.get());
        System.out.println("thrown=" + (thrown.get() == null ? "none" : thrown.get().toString().replace('\n', ' ')));
    }
}
