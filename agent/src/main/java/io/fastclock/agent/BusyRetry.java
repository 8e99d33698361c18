package io.fastclock.agent;

/**
 * The later measurements of a decision that busy CPUs cut short: on a daemon thread,
 * {@value #THREAD_NAME}, after a delay that doubles each time, at most {@value #ATTEMPTS} times
 * (about 8 s in all, and a probe's CPU each: bounded). Interrupting the thread only wakes it to
 * sleep out the rest of its delay.
 */
final class BusyRetry {
    static final String THREAD_NAME = "fastclock-remeasure";
    /** Later measurements at most; the last one's decision stands, busy or not. */
    static final int ATTEMPTS = 5;
    static final long FIRST_DELAY_MILLIS = 250;

    private BusyRetry() {}

    /** The delay before the measurement after attempt {@code attempt} (0-based): 250 ms, 500 ms, ... 4 s. */
    static long delayMillis(int attempt) {
        return FIRST_DELAY_MILLIS << Math.min(attempt, 10);
    }

    /** What a start line decided on a later measurement ends with. */
    static String note(int attempt, String stillBusy) {
        return "; decided on measuring again (" + attempt + (attempt == 1 ? " time" : " times") + ", the CPUs were busy"
                + (stillBusy == null ? " before)" : " throughout: " + stillBusy + ")");
    }

    static void schedule(int attempt, Runnable decide) {
        long delayNanos = delayMillis(attempt) * 1_000_000L;
        Thread t = new Thread(() -> {
            long deadline = System.nanoTime() + delayNanos;
            long left;
            while ((left = deadline - System.nanoTime()) > 0) {
                try {
                    Thread.sleep(Math.max(1, left / 1_000_000L));
                } catch (InterruptedException e) {
                    // an application that interrupts every thread: sleep out the delay
                }
            }
            decide.run();
        }, THREAD_NAME);
        t.setDaemon(true);
        t.start();
    }
}
