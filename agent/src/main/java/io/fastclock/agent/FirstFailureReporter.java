package io.fastclock.agent;

import io.fastclock.rewrite.RewriteListener;

import java.util.concurrent.atomic.AtomicBoolean;

/** log=info: the first class whose rewrite failed is named once; the rest are only counted. */
final class FirstFailureReporter implements RewriteListener {
    private final AgentLog log;
    private final AtomicBoolean reported = new AtomicBoolean();

    FirstFailureReporter(AgentLog log) {
        this.log = log;
    }

    @Override
    public void rewritten(String className, int callSites) {
        // only failures are reported at this level
    }

    @Override
    public void failed(String className, Throwable t) {
        if (reported.compareAndSet(false, true)) {
            log.info("could not rewrite " + className.replace('/', '.') + " (" + t
                    + "); it keeps the system clocks; later failures are only counted (log=debug lists them)");
        }
    }
}
