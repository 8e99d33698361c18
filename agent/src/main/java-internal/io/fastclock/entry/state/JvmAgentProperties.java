package io.fastclock.entry.state;

import java.util.Properties;
import java.util.function.Supplier;
import jdk.internal.vm.VMSupport;

/**
 * The JVM's agent properties, for the entry's inactive verdict (io.fastclock.entry.EntryState).
 * Defined alone in a class loader of the entry's own, whose unnamed module is the only one that
 * java.base's jdk.internal.vm is exported to for it: application code can define no class there.
 * Stored in the jar as a resource, never on the class path. Compiled apart with --add-exports
 * (agent/pom.xml, execution "jdk-internal-calls").
 */
public final class JvmAgentProperties implements Supplier<Properties> {
    @Override
    public Properties get() {
        return VMSupport.getAgentProperties();
    }
}
