package io.fastclock.it.apps;

/**
 * Loaded only by CoverageApp.IsolatedLoader (parent: bootstrap), which sees only java.* and
 * fastclock's runtime. Never name this class with a literal elsewhere: ActivationIT counts on the
 * isolated copy being its only definition.
 */
public final class IsolatedCalls {
    private IsolatedCalls() {}

    public static long read() {
        return System.currentTimeMillis();
    }
}
