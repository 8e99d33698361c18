package io.fastclock.entry;

import java.lang.instrument.Instrumentation;

/**
 * start=background: premain hands everything, the agent's module included, to a daemon thread
 * ("fastclock-start") and returns, so main runs on the system clocks while the agent decides. The
 * caller has been checked on premain's own stack first. The Runnable, this class's, is reachable
 * from the Thread object by code that can read java.lang's private fields (sun.misc.Unsafe, or
 * JDK 11's illegal-access=permit: no agent can keep those out, docs/ISOLATION.md), so it drops the
 * Instrumentation as the thread begins and the thread's stack alone holds it from then on. A JVM that ends first does not wait for it (daemon); the module's
 * FastclockAgent keeps quiet about what fails because the JVM is shutting down.
 */
final class BackgroundStart implements Runnable {
    static final String THREAD_NAME = "fastclock-start";

    private final String args;
    /** Cleared as the thread begins: from then on only its stack holds the Instrumentation. */
    private Instrumentation inst;

    private BackgroundStart(String args, Instrumentation inst) {
        this.args = args;
        this.inst = inst;
    }

    static void begin(String args, Instrumentation inst) {
        Thread t = new Thread(new BackgroundStart(args, inst), THREAD_NAME);
        t.setDaemon(true);
        t.start();
    }

    @Override
    public void run() {
        Instrumentation handed = inst;
        inst = null;
        try {
            PrivateModule.define(false).launch(new Object[] {"premain", args, handed, Boolean.TRUE});
        } catch (Throwable t) {
            AgentEntry.notStarted(t);
        }
    }
}
