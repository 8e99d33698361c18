package io.fastclock.it.apps;

import java.lang.instrument.Instrumentation;

/**
 * A test-only agent (IsolationIT packs it into a jar and gives it after fastclock's -javaagent, or
 * alone where fastclock is attached later) that finds the class loader of fastclock's module for
 * {@link RightsProbeApp}, in every mode, where the application alone finds it only through the MBean
 * (jmx=on). It keeps its own Instrumentation private: RightsProbeApp looks for fastclock's.
 */
public final class AgentLoaderProbe {
    static final String AGENT_MODULE = "io.fastclock.agent";
    private static volatile Instrumentation inst;

    private AgentLoaderProbe() {}

    public static void premain(String args, Instrumentation given) {
        inst = given;
    }

    /**
     * The loader of a loaded class of the module {@value #AGENT_MODULE}; null without this agent or
     * without that module. While start=background's thread runs (it defines the module), waits for it
     * up to {@code waitMillis}.
     */
    public static ClassLoader agentLoader(long waitMillis) throws InterruptedException {
        Instrumentation mine = inst;
        if (mine == null) {
            return null;
        }
        long deadline = System.nanoTime() + waitMillis * 1_000_000L;
        while (true) {
            for (Class<?> c : mine.getAllLoadedClasses()) {
                Module m = c.getModule();
                if (m.isNamed() && AGENT_MODULE.equals(m.getName())) {
                    return c.getClassLoader();
                }
            }
            if (!backgroundStartRunning() || System.nanoTime() > deadline) {
                return null;
            }
            Thread.sleep(20);
        }
    }

    private static boolean backgroundStartRunning() {
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().equals("fastclock-start")) {
                return true;
            }
        }
        return false;
    }
}
