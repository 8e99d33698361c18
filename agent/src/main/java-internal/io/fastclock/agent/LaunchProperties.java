package io.fastclock.agent;

import java.lang.instrument.Instrumentation;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import jdk.internal.misc.VM;

/**
 * The fastclock.* system properties the JVM was launched with (-D, JAVA_TOOL_OPTIONS), as java.base
 * saved them before any application code ran. An attach reads its settings from these, not from
 * System.getProperties(): a running application could have set fastclock.library or fastclock.sysfs
 * there for the next attach to act on. Compiled apart, as BootClassDefiner; java.base exports
 * jdk.internal.misc to the agent's module (only) for it.
 */
final class LaunchProperties {
    private LaunchProperties() {}

    static Map<String, String> fastclockOnes(Instrumentation inst) {
        Module agent = LaunchProperties.class.getModule();
        inst.redefineModule(Object.class.getModule(), Collections.emptySet(),
                Collections.singletonMap("jdk.internal.misc", Set.of(agent)), Collections.emptyMap(),
                Collections.emptySet(), Collections.emptyMap());
        Map<String, String> found = new HashMap<>();
        for (Map.Entry<String, String> e : VM.getSavedProperties().entrySet()) {
            if (e.getKey().startsWith("fastclock.")) {
                found.put(e.getKey(), e.getValue());
            }
        }
        return found;
    }
}
