package io.fastclock.entry;

import java.lang.instrument.Instrumentation;
import java.util.Map;

/**
 * start=background: the thread {@value #THREAD_NAME}, which defines the agent's module and hands it the
 * start while main runs. premain has checked its caller, copied the settings' system properties, read
 * the jar and, where it could, set up the boot runtime (classes loading meanwhile already call it).
 *
 * <p>The Runnable, reachable from the Thread object by code that can read java.lang's private fields
 * (sun.misc.Unsafe, or JDK 11's illegal-access=permit: no agent can keep those out, docs/ISOLATION.md),
 * drops what it holds as the thread begins. A JVM that ends first does not wait for it (daemon).
 */
final class BackgroundStart implements Runnable {
    static final String THREAD_NAME = "fastclock-start";
    /**
     * How long the thread waits before it does anything: the JVM's own start and main's first steps
     * run without it beside them on a small machine, and a JVM that ends sooner (a command-line tool)
     * never pays for the module at all.
     */
    static final long START_DELAY_MS = 20;

    private String args;
    private Instrumentation inst;
    /** The fastclock.* system properties as premain saw them, before any application code ran. */
    private Map<String, String> properties;
    private JarSnapshot jar;

    private BackgroundStart(String args, Instrumentation inst, Map<String, String> properties, JarSnapshot jar) {
        this.args = args;
        this.inst = inst;
        this.properties = properties;
        this.jar = jar;
    }

    static void start(String args, Instrumentation inst, Map<String, String> properties, JarSnapshot jar) {
        Thread t = new Thread(new BackgroundStart(args, inst, properties, jar), THREAD_NAME);
        t.setDaemon(true);
        t.start();
    }

    @Override
    public void run() {
        String a = args;
        Instrumentation handed = inst;
        Map<String, String> p = properties;
        JarSnapshot read = jar;
        args = null;
        inst = null;
        properties = null;
        jar = null;
        EntryLines.pause(START_DELAY_MS);
        try {
            PrivateModule.define(false, read).launchAgent(EntryLines.PREMAIN, a, handed, p);
        } catch (Throwable t) {
            EntryLines.notStarted(t);
        }
    }
}
