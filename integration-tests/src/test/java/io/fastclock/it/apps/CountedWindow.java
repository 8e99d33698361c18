package io.fastclock.it.apps;

/**
 * Runs a workload inside the simulator's counted window: while the current thread is named
 * {@value #THREAD_NAME}, the slow-clocksource simulator (SLOWCLOCK_COUNT) counts its fine clock
 * reads apart from every other thread's (fine_reads_in_counted_threads). HotSpot passes the name
 * of the current thread to the OS on setName (checked on JDK 17 and 25, on main and on started
 * threads), so warm-up outside the window is not counted. Nothing else (no printing, no I/O)
 * happens inside the window.
 */
public final class CountedWindow {
    /** The simulator's default SLOWCLOCK_COUNT_THREAD prefix; at most 15 bytes (a Linux thread name). */
    public static final String THREAD_NAME = "fcsim-count";

    private CountedWindow() {}

    /** Runs op {@code times} times in the counted window, then gives the thread its name back. */
    public static void run(int times, Runnable op) {
        Thread current = Thread.currentThread();
        String name = current.getName();
        current.setName(THREAD_NAME);
        try {
            for (int i = 0; i < times; i++) {
                op.run();
            }
        } finally {
            current.setName(name);
        }
    }
}
