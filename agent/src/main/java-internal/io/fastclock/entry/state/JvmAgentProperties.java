package io.fastclock.entry.state;

import java.util.Properties;
import java.util.function.Supplier;
import jdk.internal.vm.VMSupport;

/**
 * The JVM's agent properties, for the entry's inactive verdict (io.fastclock.entry.EntryState), put
 * by this class's initialiser into the one-element array its loader hands it: initialised through
 * Class.forName, never called through reflection (whose first use may read system properties, which
 * may be the application's code, while this class can be on the stack). Defined alone in a class
 * loader of the entry's own, whose unnamed module is the only one that java.base's jdk.internal.vm is
 * exported to for it: application code can define no class there. Stored in the jar as a resource,
 * never on the class path. Compiled apart with --add-exports (agent/pom.xml, execution
 * "jdk-internal-calls").
 */
public final class JvmAgentProperties {
    static {
        ClassLoader loader = JvmAgentProperties.class.getClassLoader();
        if (loader instanceof Supplier) {
            Object slot = ((Supplier<?>) loader).get();
            if (slot instanceof Object[] && ((Object[]) slot).length == 1) {
                Properties agentProperties = VMSupport.getAgentProperties();
                ((Object[]) slot)[0] = agentProperties;
            }
        }
    }

    private JvmAgentProperties() {}
}
