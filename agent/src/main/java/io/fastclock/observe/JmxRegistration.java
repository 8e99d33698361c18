package io.fastclock.observe;

import java.lang.management.ManagementFactory;
import java.util.List;
import javax.management.MBeanServer;
import javax.management.MBeanServerFactory;
import javax.management.ObjectName;

/**
 * Registers {@code io.fastclock:type=FastClock} in the platform MBean server. Loaded only where the
 * java.management module is in the boot layer.
 *
 * <p>fastclock never creates the platform MBean server on its own (that costs tens of ms and
 * several MB at start-up): with {@code jmx=auto} the {@link ObserveWatcher} looks (every 10 ms for
 * its first 10 s, then once a second) whether the application (or a management agent, or JConsole attaching) has created it, with
 * {@link MBeanServerFactory#findMBeanServer}, which lists the servers that exist without creating
 * one, and registers there. {@code jmx=on} creates the server at start-up.
 */
final class JmxRegistration {
    static final String OBJECT_NAME = "io.fastclock:type=FastClock";
    /** Registered by the JDK in the platform server: tells it from servers an application made for itself. */
    private static final String PLATFORM_MARKER = "java.lang:type=Runtime";

    private JmxRegistration() {}

    /** jmx=on: creates the platform MBean server if need be and registers now. */
    static void registerNow(FastClockStatus bean) throws Exception {
        register(ManagementFactory.getPlatformMBeanServer(), bean);
    }

    /** The platform MBean server if it exists, without creating it; else null. */
    static MBeanServer existingPlatformServer() throws Exception {
        List<MBeanServer> servers = MBeanServerFactory.findMBeanServer(null);
        if (servers.isEmpty()) {
            return null;
        }
        ObjectName marker = new ObjectName(PLATFORM_MARKER);
        for (MBeanServer server : servers) {
            if (server.isRegistered(marker)) {
                return server;
            }
        }
        return null;
    }

    static void register(MBeanServer server, FastClockStatus bean) throws Exception {
        ObjectName name = new ObjectName(OBJECT_NAME);
        if (!server.isRegistered(name)) {
            server.registerMBean(new OwnModuleMBean(bean, FastClockMXBean.class), name);
        }
    }
}
