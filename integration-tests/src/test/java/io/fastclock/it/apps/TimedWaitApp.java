package io.fastclock.it.apps;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * java.util.concurrent's timed waits, which read System.nanoTime() inside the JDK (jdk=all covers
 * them): ScheduledThreadPoolExecutor.schedule(task, delay) and LinkedBlockingQueue.poll(timeout).
 * The executor's worker thread is named into the simulator's counted window (its name starts with
 * the counted prefix), so its reads count with the scheduling thread's. Prints per workload the slow
 * reads of {@code ops} operations in the window, and, outside it, how many of {@code ops} waits,
 * measured with CLOCK_MONOTONIC through JNA, were shorter than asked ({@code .short}) and the
 * smallest (waited - asked) in us ({@code .minSlackUs}).
 *
 * <p>args: ops delayMicros
 */
public final class TimedWaitApp {
    public static void main(String[] args) throws Exception {
        AgentVerdict.await();
        int ops = Integer.parseInt(args[0]);
        long delayNs = Long.parseLong(args[1]) * 1000L;
        System.out.println("backends=" + ReferenceClocks.backends().replace(' ', ','));
        ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1,
                r -> new Thread(r, CountedWindow.THREAD_NAME + "-w"));
        LinkedBlockingQueue<Object> queue = new LinkedBlockingQueue<>();
        Runnable schedule = () -> await(executor.schedule(() -> 1, delayNs, TimeUnit.NANOSECONDS));
        Runnable poll = () -> poll(queue, delayNs);
        for (int i = 0; i < ops / 2; i++) {
            schedule.run();
            poll.run();
        }
        count("schedule", ops, schedule);
        count("poll", ops, poll);

        long scheduleShort = 0;
        long scheduleMinSlack = Long.MAX_VALUE;
        long pollShort = 0;
        long pollMinSlack = Long.MAX_VALUE;
        for (int i = 0; i < ops; i++) {
            long start = JnaClocks.monotonicNanos();
            ScheduledFuture<Long> ran = executor.schedule(JnaClocks::monotonicNanos, delayNs, TimeUnit.NANOSECONDS);
            long slack = await(ran) - start - delayNs;
            scheduleShort += slack < 0 ? 1 : 0;
            scheduleMinSlack = Math.min(scheduleMinSlack, slack);

            start = JnaClocks.monotonicNanos();
            poll(queue, delayNs);
            slack = JnaClocks.monotonicNanos() - start - delayNs;
            pollShort += slack < 0 ? 1 : 0;
            pollMinSlack = Math.min(pollMinSlack, slack);
        }
        executor.shutdown();
        System.out.println("schedule.short=" + scheduleShort);
        System.out.println("schedule.minSlackUs=" + scheduleMinSlack / 1000);
        System.out.println("poll.short=" + pollShort);
        System.out.println("poll.minSlackUs=" + pollMinSlack / 1000);
        System.out.println("done=ok");
    }

    private static void count(String name, int ops, Runnable op) {
        long before = JnaClocks.countedSlowReads();
        CountedWindow.run(ops, op);
        System.out.println(name + ".slowReads=" + (JnaClocks.countedSlowReads() - before));
    }

    private static <T> T await(ScheduledFuture<T> future) {
        try {
            return future.get();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static void poll(LinkedBlockingQueue<Object> queue, long timeoutNs) {
        try {
            if (queue.poll(timeoutNs, TimeUnit.NANOSECONDS) != null) {
                throw new IllegalStateException("nothing was offered");
            }
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}
