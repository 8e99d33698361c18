package io.fastclock.entry;

import java.lang.instrument.Instrumentation;

/**
 * The only class of fastclock.jar that the application's class loader can load (Premain-Class,
 * Agent-Class and Main-Class). It holds nothing: no field, no Instrumentation. It checks that the
 * JVM called it, then hands over to the agent's own module, which {@link PrivateModule} defines from
 * the jar's {@code .classdata} resources in a layer and loader of its own, whose packages are
 * neither exported nor opened to any module the application can load classes into.
 */
public final class AgentEntry {
    private AgentEntry() {}

    public static void premain(String args, Instrumentation inst) {
        agent("premain", args, inst);
    }

    public static void agentmain(String args, Instrumentation inst) {
        agent("agentmain", args, inst);
    }

    /** {@code java -jar fastclock.jar}: the doctor and the commands. */
    public static void main(String[] args) {
        String refusal = CallerCheck.refusalForMain();
        if (refusal != null) {
            System.err.println("fastclock: main refused: " + refusal);
            return;
        }
        try {
            PrivateModule.define(true).launch(new Object[] {"main", args});
        } catch (Exception e) {
            System.err.println("fastclock: cannot start: " + e);
            System.exit(1);
        }
    }

    private static void agent(String how, String args, Instrumentation inst) {
        try {
            String refusal = CallerCheck.refusalForAgent(inst);
            if (refusal != null) {
                System.err.println("fastclock: " + how + " refused: " + refusal);
                return;
            }
            PrivateModule.define(false).launch(new Object[] {how, args, inst});
        } catch (Throwable t) {
            System.err.println("fastclock: agent not started, the application runs on the system clocks: " + t);
        }
    }
}
