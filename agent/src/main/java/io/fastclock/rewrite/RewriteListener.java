package io.fastclock.rewrite;

/**
 * Told about each class the transformer rewrote or failed on. Called concurrently from the threads
 * that load classes; implementations must be thread-safe, fast, and should not load application
 * classes. Exceptions thrown by a listener are swallowed.
 */
public interface RewriteListener {
    /** {@code className} (internal form) was rewritten; {@code callSites} references now go to FastClock. */
    void rewritten(String className, int callSites);

    /** Rewriting {@code className} threw; the class was left unchanged. */
    void failed(String className, Throwable t);
}
