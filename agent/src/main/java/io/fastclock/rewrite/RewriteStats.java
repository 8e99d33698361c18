package io.fastclock.rewrite;

import java.util.concurrent.atomic.AtomicLong;

/** Thread-safe counters of what the transformer did. */
public final class RewriteStats implements RewriteListener {
    // AtomicLong, not LongAdder: a LongAdder under contention initialises ThreadLocalRandom, and the
    // transformer counts while ThreadLocalRandom itself may be loading (a ClassCircularityError, seen
    // on JDK 21 when two threads loaded classes at once).
    private final AtomicLong excluded = new AtomicLong();
    private final AtomicLong scanned = new AtomicLong();
    private final AtomicLong parsed = new AtomicLong();
    private final AtomicLong rewritten = new AtomicLong();
    private final AtomicLong callSites = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private final AtomicLong skippedNamedModule = new AtomicLong();
    // Not an AtomicReference: its VarHandle is the JVM's first (VarHandles, VarForm: about half a
    // millisecond of premain where the boot runtime is set up).
    private final Object firstFailureLock = new Object();
    private volatile String firstFailure;

    void countExcluded() {
        excluded.incrementAndGet();
    }

    void countScanned() {
        scanned.incrementAndGet();
    }

    void countParsed() {
        parsed.incrementAndGet();
    }

    void countSkippedNamedModule() {
        skippedNamedModule.incrementAndGet();
    }

    @Override
    public void rewritten(String className, int sites) {
        rewritten.incrementAndGet();
        callSites.addAndGet(sites);
    }

    @Override
    public void failed(String className, Throwable t) {
        failures.incrementAndGet();
        if (firstFailure == null) {
            String failure = className + ": " + t;
            synchronized (firstFailureLock) {
                if (firstFailure == null) {
                    firstFailure = failure;
                }
            }
        }
    }

    /** Classes the filter turned away before their bytes were looked at. */
    public long excluded() {
        return excluded.get();
    }

    /** Classes whose bytes were searched for {@code java/lang/System}. */
    public long scanned() {
        return scanned.get();
    }

    /** Classes that mentioned {@code java/lang/System} and were parsed. */
    public long parsed() {
        return parsed.get();
    }

    /** Classes rewritten. */
    public long rewritten() {
        return rewritten.get();
    }

    /** References swapped, over all rewritten classes. */
    public long callSites() {
        return callSites.get();
    }

    /** Classes whose rewrite threw (left unchanged). */
    public long failures() {
        return failures.get();
    }

    /** Rewritable classes left alone because their named module was not allowed to read FastClock. */
    public long skippedNamedModule() {
        return skippedNamedModule.get();
    }

    /** {@code "com/foo/Bar: java.lang.SomeException: message"} for the first failure, or null. */
    public String firstFailure() {
        return firstFailure;
    }

    @Override
    public String toString() {
        return "scanned=" + scanned() + " parsed=" + parsed() + " rewritten=" + rewritten()
                + " callSites=" + callSites() + " failures=" + failures() + " excluded=" + excluded()
                + " skippedNamedModule=" + skippedNamedModule();
    }
}
