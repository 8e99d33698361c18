package io.fastclock.rewrite;

import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/** Thread-safe counters of what the transformer did. */
public final class RewriteStats implements RewriteListener {
    private final LongAdder excluded = new LongAdder();
    private final LongAdder scanned = new LongAdder();
    private final LongAdder parsed = new LongAdder();
    private final LongAdder rewritten = new LongAdder();
    private final LongAdder callSites = new LongAdder();
    private final LongAdder failures = new LongAdder();
    private final LongAdder skippedNamedModule = new LongAdder();
    private final AtomicReference<String> firstFailure = new AtomicReference<>();

    void countExcluded() {
        excluded.increment();
    }

    void countScanned() {
        scanned.increment();
    }

    void countParsed() {
        parsed.increment();
    }

    void countSkippedNamedModule() {
        skippedNamedModule.increment();
    }

    @Override
    public void rewritten(String className, int sites) {
        rewritten.increment();
        callSites.add(sites);
    }

    @Override
    public void failed(String className, Throwable t) {
        failures.increment();
        if (firstFailure.get() == null) {
            firstFailure.compareAndSet(null, className + ": " + t);
        }
    }

    /** Classes the filter turned away before their bytes were looked at. */
    public long excluded() {
        return excluded.sum();
    }

    /** Classes whose bytes were searched for {@code java/lang/System}. */
    public long scanned() {
        return scanned.sum();
    }

    /** Classes that mentioned {@code java/lang/System} and were parsed. */
    public long parsed() {
        return parsed.sum();
    }

    /** Classes rewritten. */
    public long rewritten() {
        return rewritten.sum();
    }

    /** References swapped, over all rewritten classes. */
    public long callSites() {
        return callSites.sum();
    }

    /** Classes whose rewrite threw (left unchanged). */
    public long failures() {
        return failures.sum();
    }

    /** Rewritable classes left alone because their named module was not allowed to read FastClock. */
    public long skippedNamedModule() {
        return skippedNamedModule.sum();
    }

    /** {@code "com/foo/Bar: java.lang.SomeException: message"} for the first failure, or null. */
    public String firstFailure() {
        return firstFailure.get();
    }

    @Override
    public String toString() {
        return "scanned=" + scanned() + " parsed=" + parsed() + " rewritten=" + rewritten()
                + " callSites=" + callSites() + " failures=" + failures() + " excluded=" + excluded()
                + " skippedNamedModule=" + skippedNamedModule();
    }
}
