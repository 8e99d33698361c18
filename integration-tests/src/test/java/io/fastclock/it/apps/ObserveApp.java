package io.fastclock.it.apps;

import java.lang.management.ManagementFactory;
import java.util.List;
import javax.management.MBeanServer;
import javax.management.MBeanServerFactory;
import javax.management.ObjectName;

/**
 * What an operator sees of fastclock through JMX, and whether a platform MBean server exists.
 * Arguments, in any order: {@code platform} (the application creates the platform MBean server, as
 * any app using JMX does), {@code sleepMs=N} (keep running that long, clock reads and all: the
 * recording and the watcher get time), {@code mbean} (wait up to 10 s, or {@code mbeanWaitMs=N}, for io.fastclock:type=FastClock
 * in an existing platform server, never creating one, and print its attributes), {@code fake} (once
 * the agent has published its state, set the fastclock.* system properties to other values:
 * fastclock.active to the opposite, and {@link #FAKE}, as any application code can). {@code untilReanchors=N}
 * (with {@code mbean}: before printing, wait up to {@value #CONDITION_DEADLINE_MS} ms, reading the
 * clock, until the MBean counts N re-anchors). Always prints {@code servers=} (MBean servers that exist, found without creating one) and {@code watcher=}.
 */
public final class ObserveApp {
    static final String NAME = "io.fastclock:type=FastClock";
    static final String[] ATTRIBUTES = {"Active", "Started", "Reason", "MillisBackend", "NanosBackend", "Fallback",
        "TscRunning", "TscReanchors", "TscLastErrorNanos", "TscWorstErrorNanos", "TscLastRateChangePpm",
        "TscLateExtensions", "Classes", "TscFallbackErrorNanos", "MillisLagMs"};
    /** What {@code fake} writes before the MBean is read: none of it may show in the MBean. */
    public static final String[][] FAKE = {{"fastclock.started", "fake-started"}, {"fastclock.reason", "fake-reason"},
        {"fastclock.millis", "system"}, {"fastclock.classes", "999"}, {"fastclock.fallback", "fake-fallback"}};

    /** How long a wait for a condition may take: far beyond what it needs even on a loaded machine. */
    static final long CONDITION_DEADLINE_MS = 60_000;

    private static long untilReanchors;
    private static long sink;

    public static void main(String[] args) throws Exception {
        AgentVerdict.await();
        boolean platform = false;
        boolean mbean = false;
        boolean fake = false;
        long sleepMs = 0;
        for (String arg : args) {
            if (arg.equals("platform")) {
                platform = true;
            } else if (arg.equals("mbean")) {
                mbean = true;
            } else if (arg.equals("fake")) {
                fake = true;
            } else if (arg.startsWith("sleepMs=")) {
                sleepMs = Long.parseLong(arg.substring("sleepMs=".length()));
            } else if (arg.startsWith("mbeanWaitMs=")) {
                mbeanWaitMs = Long.parseLong(arg.substring("mbeanWaitMs=".length()));
            } else if (arg.startsWith("untilReanchors=")) {
                untilReanchors = Long.parseLong(arg.substring("untilReanchors=".length()));
            }
        }
        System.out.println("backends=" + ReferenceClocks.backends().replace(' ', ','));
        System.out.println("active=" + System.getProperty("fastclock.active"));
        if (platform) {
            ManagementFactory.getPlatformMBeanServer();
        }
        long until = System.nanoTime() + sleepMs * 1_000_000L;
        while (System.nanoTime() < until) {
            sink += System.currentTimeMillis();
            Thread.sleep(1);
        }
        if (fake) {
            System.setProperty("fastclock.active", Boolean.toString(!"true".equals(System.getProperty("fastclock.active"))));
            for (String[] property : FAKE) {
                System.setProperty(property[0], property[1]);
            }
        }
        if (mbean) {
            printMBean();
        }
        System.out.println("watcher=" + threadNamed("fastclock-observe"));
        System.out.println("servers=" + MBeanServerFactory.findMBeanServer(null).size());
        System.out.println("sink=" + (sink != 0));
    }

    /** How long {@code mbean} waits for the MBean. */
    private static long mbeanWaitMs = 10_000;

    static void printMBean() throws Exception {
        ObjectName name = new ObjectName(NAME);
        MBeanServer found = null;
        for (long i = 0; i < mbeanWaitMs / 10 && found == null; i++) {
            for (MBeanServer server : MBeanServerFactory.findMBeanServer(null)) {
                if (server.isRegistered(name)) {
                    found = server;
                }
            }
            if (found == null) {
                Thread.sleep(10);
            }
        }
        System.out.println("mbean=" + (found != null));
        if (found == null) {
            return;
        }
        List<?> platformOnes = MBeanServerFactory.findMBeanServer(null);
        System.out.println("mbeanInPlatformServer=" + (found == platformOnes.get(0)
                && found.isRegistered(new ObjectName("java.lang:type=Runtime"))));
        if (untilReanchors > 0) {
            long deadline = System.nanoTime() + CONDITION_DEADLINE_MS * 1_000_000L;
            Object reanchors;
            while (!((reanchors = found.getAttribute(name, "TscReanchors")) instanceof Long
                    && (Long) reanchors >= untilReanchors) && System.nanoTime() < deadline) {
                sink += System.currentTimeMillis();
                Thread.sleep(1);
            }
        }
        for (String attribute : ATTRIBUTES) {
            System.out.println("mbean." + attribute + "=" + found.getAttribute(name, attribute));
        }
    }

    /** The MBean's attributes as {@code mbean.NAME=} lines, if it is registered now (no waiting); else nothing. */
    public static void printRegisteredMBean() throws Exception {
        ObjectName name = new ObjectName(NAME);
        for (MBeanServer server : MBeanServerFactory.findMBeanServer(null)) {
            if (server.isRegistered(name)) {
                for (String attribute : ATTRIBUTES) {
                    System.out.println("mbean." + attribute + "=" + server.getAttribute(name, attribute));
                }
                return;
            }
        }
    }

    private static boolean threadNamed(String name) {
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().equals(name)) {
                return true;
            }
        }
        return false;
    }
}
