package io.fastclock.entry;

import java.lang.instrument.Instrumentation;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

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
    /**
     * How long the start waits before it defines the module: the JVM's own start and main's first
     * steps run without this thread beside them on a small machine.
     */
    static final long DELAY_MS = 20;

    private final String args;
    /** The fastclock.* system properties as premain saw them, before any application code ran. */
    private final Map<String, String> properties;
    /** Cleared as the thread begins: from then on only its stack holds the Instrumentation. */
    private Instrumentation inst;

    private BackgroundStart(String args, Instrumentation inst, Map<String, String> properties) {
        this.args = args;
        this.inst = inst;
        this.properties = properties;
    }

    static void begin(String args, Instrumentation inst, Map<String, String> properties) {
        Thread t = new Thread(new BackgroundStart(args, inst, properties), THREAD_NAME);
        t.setDaemon(true);
        t.start();
    }

    /**
     * The settings' system properties, copied on premain's thread: main runs before the agent reads
     * its settings, and a property the application sets meanwhile (fastclock.library, fastclock.sysfs)
     * must not choose what the agent loads or believes.
     */
    static Map<String, String> settingsProperties(Properties system) {
        Map<String, String> copy = new HashMap<>();
        for (String name : system.stringPropertyNames()) {
            if (name.startsWith("fastclock.")) {
                copy.put(name, system.getProperty(name));
            }
        }
        return Collections.unmodifiableMap(copy);
    }

    @Override
    public void run() {
        Instrumentation handed = inst;
        inst = null;
        long deadline = System.nanoTime() + DELAY_MS * 1_000_000L;
        for (long left; (left = deadline - System.nanoTime()) > 0; ) {
            try {
                Thread.sleep(left / 1_000_000L + 1);
            } catch (InterruptedException e) {
                // an application interrupting every thread does not stop the start
            }
        }
        try {
            PrivateModule.define(false).launch(new Object[] {"premain", args, handed, Boolean.TRUE, properties});
        } catch (Throwable t) {
            AgentEntry.notStarted(t);
        }
    }
}
