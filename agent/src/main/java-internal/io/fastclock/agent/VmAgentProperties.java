package io.fastclock.agent;

import java.util.Properties;
import jdk.internal.vm.VMSupport;

/**
 * The JVM's agent properties (jdk.internal.vm.VMSupport.getAgentProperties()): what HotSpot's attach
 * command {@code agentProperties} returns (VirtualMachine.getAgentProperties()), where the agent
 * publishes its state for {@code status}, {@code attach} and {@code detach}. Application code cannot
 * write them: java.base exports jdk.internal.vm to this agent's module only (AgentState asks for
 * that through Instrumentation.redefineModule before the first call). Compiled apart with
 * --add-exports (agent/pom.xml, execution "jdk-internal-calls").
 */
final class VmAgentProperties {
    private VmAgentProperties() {}

    static Properties get() {
        return VMSupport.getAgentProperties();
    }
}
