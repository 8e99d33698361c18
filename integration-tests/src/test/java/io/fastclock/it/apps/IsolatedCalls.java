package io.fastclock.it.apps;

/** Loaded a second time by CoverageApp.IsolatedLoader (parent: bootstrap), which sees only java.* and fastclock's runtime. */
public final class IsolatedCalls {
    private IsolatedCalls() {}

    public static long read() {
        return System.currentTimeMillis();
    }
}
