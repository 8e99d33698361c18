package io.fastclock.it.apps;

import java.util.concurrent.CountDownLatch;
import java.util.function.LongSupplier;

/**
 * The first thing a user tries, at the defaults: reads from main's first instruction, in shapes the
 * verdict's retransformation cannot reach once they run (issue 34): a loop in main itself, a method
 * entered before the verdict that loops after it (on another thread), and method references to
 * System::currentTimeMillis and System::nanoTime bound before the verdict. Each reads on until the
 * agent publishes its verdict ({@code fastclock.active}), then, without leaving its frame, counts what
 * it still reads from the slow clock in the simulator's window ({@link CountedWindow}'s thread name;
 * the loop renames its own thread around its window).
 *
 * <p>args: reads per window, most seconds to wait for the verdict, and optionally threads that read the
 * clocks without a pause from main's first instruction to its end (beside a serialised slow clock, they
 * compete with the agent's own measurement). Prints key=value lines; the test decides.
 * {@code verdictAtMain} says whether the verdict was in before main began.
 */
public final class FirstReadApp {
    static long sink;

    public static void main(String[] args) throws Exception {
        String verdictAtMain = System.getProperty("fastclock.active");
        long t0 = System.nanoTime();
        LongSupplier millisRef = System::currentTimeMillis;
        LongSupplier nanosRef = System::nanoTime;
        int window = Integer.parseInt(args[0]);
        long waitNanos = Long.parseLong(args[1]) * 1_000_000_000L;
        int hammers = args.length > 2 ? Integer.parseInt(args[2]) : 0;
        for (int i = 0; i < hammers; i++) {
            Thread t = new Thread(FirstReadApp::hammer, "hammer-" + i);
            t.setDaemon(true);
            t.start();
        }
        CountDownLatch entered = new CountDownLatch(1);
        long[] enteredReads = new long[1];
        Thread worker = new Thread(() -> enteredBefore(window, waitNanos, entered, enteredReads), "entered-before");
        worker.start();

        // A loop in main from its first instruction: the frame never returns until the window is read.
        long reads = 0;
        long s = 0;
        String verdict = null;
        long verdictSeen = -1;
        boolean counted = false;
        while (!counted) {
            s += System.currentTimeMillis();
            s += System.nanoTime();
            reads++;
            if ((reads & 1023) == 0) {
                verdict = System.getProperty("fastclock.active");
                if (verdict != null || System.nanoTime() - t0 > waitNanos) {
                    verdictSeen = verdict == null ? -1 : (System.nanoTime() - t0) / 1_000_000L;
                    Thread me = Thread.currentThread();
                    String name = me.getName();
                    me.setName(CountedWindow.THREAD_NAME);
                    for (int i = 0; i < window; i++) {
                        s += System.currentTimeMillis();
                        s += System.nanoTime();
                    }
                    me.setName(name);
                    counted = true;
                }
            }
        }
        // Method references bound before the verdict, called after it.
        CountedWindow.run(window, () -> sink += millisRef.getAsLong() + nanosRef.getAsLong());
        worker.join();
        sink += s;
        System.out.println("verdictAtMain=" + verdictAtMain);
        System.out.println("verdict=" + verdict);
        System.out.println("mainReadsBeforeWindow=" + reads);
        System.out.println("enteredReadsBeforeWindow=" + enteredReads[0]);
        System.out.println("reads=" + (6L * window));
        System.out.println("verdictMs=" + verdictSeen);
    }

    /** Reads the clocks without a pause, for the JVM's life. */
    static void hammer() {
        long s = 0;
        while (true) {
            s += System.currentTimeMillis() + System.nanoTime();
            if (s == 42) {
                sink = s;
            }
        }
    }

    /** Entered before the verdict and looping after it, on a thread of its own. */
    static void enteredBefore(int window, long waitNanos, CountDownLatch entered, long[] readsBefore) {
        long t0 = System.nanoTime();
        entered.countDown();
        long reads = 0;
        long s = 0;
        while (true) {
            s += System.currentTimeMillis();
            s += System.nanoTime();
            reads++;
            if ((reads & 1023) == 0 && (System.getProperty("fastclock.active") != null || System.nanoTime() - t0 > waitNanos)) {
                Thread me = Thread.currentThread();
                me.setName(CountedWindow.THREAD_NAME);
                for (int i = 0; i < window; i++) {
                    s += System.currentTimeMillis();
                    s += System.nanoTime();
                }
                me.setName("entered-before");
                break;
            }
        }
        readsBefore[0] = reads;
        sink += s;
    }
}
