package io.fastclock.it.apps;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Reads the clocks from the first line of main, through the agent's verdict with start=background
 * and past it, checking the contract on every read: nanoTime never backwards in one thread nor
 * across threads, currentTimeMillis and Instant.now() against the JDK's clocks (ReferenceClocks).
 * The reads go through small methods called again and again, so that once the agent retransforms
 * this class the next call runs the rewritten code. Then counts, in the simulator's window, what
 * those methods still read from the slow clock. Prints key=value lines; the test decides.
 *
 * args: threads, ms to keep reading after the verdict, most seconds to wait for it, and optionally
 * "interrupt": while waiting, interrupt every other thread again and again (as frameworks do), or
 * "setSettings": set fastclock.mode=off, fastclock.library and user.name at once, before the agent reads them
 */
public final class BackgroundSwitchApp {
    static final AtomicLong LATEST_NANOS = new AtomicLong(Long.MIN_VALUE);
    static volatile boolean stop;
    static volatile boolean verdictSeen;

    public static void main(String[] args) throws Exception {
        // Before anything else: was the verdict in when main began?
        String activeAtMain = System.getProperty("fastclock.active");
        if (args.length > 3 && args[3].equals("setSettings")) {
            // What a hostile application would try before the agent reads its settings.
            System.setProperty("fastclock.mode", "off");
            System.setProperty("fastclock.library", "/nonexistent/libfastclock.so");
            // The extraction must not take the owner it checks from a property (it refused its own file).
            System.setProperty("user.name", "nobody-hostile");
        }
        System.out.println("activeAtMain=" + activeAtMain);
        System.out.println("startThread=" + startThread());
        int threads = Integer.parseInt(args[0]);
        long afterMs = Long.parseLong(args[1]);
        long waitNanos = Long.parseLong(args[2]) * 1_000_000_000L;
        long t0 = ReferenceClocks.nanos();
        List<Reader> readers = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            Reader r = new Reader();
            readers.add(r);
            r.start();
        }
        boolean interrupt = args.length > 3 && args[3].equals("interrupt");
        long interrupts = 0;
        while (System.getProperty("fastclock.active") == null && ReferenceClocks.nanos() - t0 < waitNanos) {
            if (interrupt) {
                for (Thread t : Thread.getAllStackTraces().keySet()) {
                    if (t != Thread.currentThread() && !(t instanceof Reader)) {
                        t.interrupt();
                        if (t.getName().equals("fastclock-start")) {
                            interrupts++;
                        }
                    }
                }
            }
            Thread.sleep(1);
        }
        System.out.println("startThreadInterrupts=" + interrupts);
        System.out.println("verdictAfterMainMs=" + (ReferenceClocks.nanos() - t0) / 1_000_000);
        System.out.println("active=" + System.getProperty("fastclock.active"));
        verdictSeen = true;
        Thread.sleep(afterMs);
        stop = true;
        long reads = 0;
        long readsAfter = 0;
        long backwardsOne = 0;
        long backwardsAcross = 0;
        long nanosOutside = 0;
        long nanosStep = 0;
        long millisBehind = 0;
        long millisAhead = Long.MIN_VALUE;
        long instantOutside = 0;
        for (Reader r : readers) {
            r.join();
            reads += r.reads;
            readsAfter += r.readsAfterVerdict;
            backwardsOne += r.backwardsOne;
            backwardsAcross += r.backwardsAcross;
            nanosOutside = Math.max(nanosOutside, r.nanosOutside);
            nanosStep = Math.max(nanosStep, r.nanosStep);
            millisBehind = Math.max(millisBehind, r.millisBehind);
            millisAhead = Math.max(millisAhead, r.millisAhead);
            instantOutside += r.instantOutside;
        }
        System.out.println("backends=" + ReferenceClocks.backends().replace(' ', ','));
        System.out.println("reads=" + reads);
        System.out.println("readsAfterVerdict=" + readsAfter);
        System.out.println("nanos.backwardsSingleThread=" + backwardsOne);
        System.out.println("nanos.backwardsAcrossThreads=" + backwardsAcross);
        System.out.println("nanos.worstOutsideReferenceNs=" + nanosOutside);
        System.out.println("nanos.worstStepNs=" + nanosStep);
        System.out.println("millis.worstBehindMs=" + millisBehind);
        System.out.println("millis.worstAheadMs=" + millisAhead);
        System.out.println("instant.outside=" + instantOutside);
        // Where nanoTime now stands against System.nanoTime: before the switch it was System.nanoTime
        // itself, so this is the step the switch made (a step a floor held off shows in worstStepNs).
        System.out.println("nanos.offsetAfterSwitchNs=" + offsetNow());
        // What the same methods read from the slow clock now (the simulator counts this window).
        long[] sink = new long[1];
        CountedWindow.run(10_000, () -> sink[0] += readNanos() + readMillis());
        System.out.println("sink=" + (sink[0] != 0));
    }

    /** The agent's start=background thread as main sees it: daemon, user (would hold the JVM open) or absent. */
    static String startThread() {
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().equals("fastclock-start")) {
                return t.isDaemon() ? "daemon" : "user";
            }
        }
        return "absent";
    }

    /** readNanos() minus the midpoint of System.nanoTime read around it, from the narrowest of 2000 windows. */
    static long offsetNow() {
        long bestWindow = Long.MAX_VALUE;
        long offset = 0;
        for (int i = 0; i < 2000; i++) {
            long before = ReferenceClocks.nanos();
            long t = readNanos();
            long after = ReferenceClocks.nanos();
            if (after - before < bestWindow) {
                bestWindow = after - before;
                offset = t - (before + (after - before) / 2);
            }
        }
        return offset;
    }

    static long readNanos() {
        return System.nanoTime();
    }

    static long readMillis() {
        return System.currentTimeMillis();
    }

    static final class Reader extends Thread {
        long reads;
        long readsAfterVerdict;
        long backwardsOne;
        long backwardsAcross;
        long nanosOutside;
        /**
         * The largest step of nanoTime against System.nanoTime between two reads in a row that their
         * reference windows prove: each read's offset from the reference lies in [t - after, t - before],
         * so two reads whose intervals do not overlap show a step of at least the gap (a backwards step
         * that a monotonic floor turns into a stall shows as one too). A preempted read only widens its
         * interval, and proves less.
         */
        long nanosStep;
        long millisBehind;
        long millisAhead = Long.MIN_VALUE;
        long instantOutside;

        @Override
        public void run() {
            long previous = Long.MIN_VALUE;
            long previousLow = Long.MIN_VALUE;
            long previousHigh = Long.MAX_VALUE;
            while (!stop) {
                long seen = LATEST_NANOS.get();
                long referenceBefore = ReferenceClocks.nanos();
                long t = readNanos();
                long referenceAfter = ReferenceClocks.nanos();
                // A replacement that never goes backwards can still sit off System.nanoTime (a floor
                // held for a while, a late origin): the contract's 100 us is checked read by read.
                nanosOutside = Math.max(nanosOutside, Math.max(referenceBefore - t, t - referenceAfter));
                long low = t - referenceAfter;
                long high = t - referenceBefore;
                if (previousLow != Long.MIN_VALUE) {
                    nanosStep = Math.max(nanosStep, Math.max(low - previousHigh, previousLow - high));
                }
                previousLow = low;
                previousHigh = high;
                if (t < previous) {
                    backwardsOne++;
                }
                if (t < seen) {
                    backwardsAcross++;
                }
                previous = t;
                LATEST_NANOS.accumulateAndGet(t, Math::max);
                long before = ReferenceClocks.millis();
                long millis = readMillis();
                long instant = Instant.now().toEpochMilli();
                long after = ReferenceClocks.millis();
                millisBehind = Math.max(millisBehind, before - millis);
                millisAhead = Math.max(millisAhead, millis - after);
                if (instant < before - 1 || instant > after + 1) {
                    instantOutside++;
                }
                reads++;
                if (verdictSeen) {
                    readsAfterVerdict++;
                }
            }
        }
    }
}
