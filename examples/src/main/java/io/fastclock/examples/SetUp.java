package io.fastclock.examples;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The demo's set-ups: a JVM of its own each, with or without the agent, with or without the simulator. */
enum SetUp {
    PLAIN("plain", "plain", false, false),
    AGENT("agent", "agent", true, false),
    SLOW("slow", "simulator", false, true),
    SLOW_AGENT("slow-agent", "simulator+agent", true, true);

    /** The name run-demo.sh takes. */
    final String id;
    /** The name the tables show. */
    final String label;
    final boolean agent;
    final boolean simulator;

    SetUp(String id, String label, boolean agent, boolean simulator) {
        this.id = id;
        this.label = label;
        this.agent = agent;
        this.simulator = simulator;
    }

    static SetUp byId(String id) {
        for (SetUp s : values()) {
            if (s.id.equals(id)) {
                return s;
            }
        }
        throw new IllegalArgumentException("--setups: unknown set-up '" + id + "': expected plain, agent, slow or slow-agent");
    }

    /** The same set-up without the agent, which this one is compared with; null for those without the agent. */
    SetUp base() {
        return this == AGENT ? PLAIN : this == SLOW_AGENT ? SLOW : null;
    }

    /** java [-javaagent:fastclock.jar] -cp fastclock-demo.jar RoundServer PROCESSORS MAX_THREADS: the agent at its defaults. */
    List<String> command(String java, Path demoJar, Path agentJar, int processors, int maxThreads) {
        List<String> command = new ArrayList<>();
        command.add(java);
        if (agent) {
            command.add("-javaagent:" + agentJar);
        }
        command.add("-cp");
        command.add(demoJar.toString());
        command.add(RoundServer.class.getName());
        command.add(Integer.toString(processors));
        command.add(Integer.toString(maxThreads));
        return command;
    }

    /** Preloads the simulator where this set-up has it; the SLOWCLOCK_* settings come from the demo's environment. */
    void environment(Map<String, String> env, Path simulatorLibrary) {
        if (simulator) {
            env.put("LD_PRELOAD", simulatorLibrary.toString());
        } else {
            env.remove("LD_PRELOAD");
        }
    }

    /** What sets this set-up apart, for the header. */
    String describe(Path agentJar, Path simulatorLibrary, Map<String, String> env) {
        List<String> parts = new ArrayList<>();
        if (agent) {
            parts.add("-javaagent:" + agentJar + " (its defaults)");
        }
        if (simulator) {
            String settings = Environment.simulator(simulatorLibrary.toString(), env.get("SLOWCLOCK_SPIN_NS"),
                    env.get("SLOWCLOCK_FINE"), env.get("SLOWCLOCK_STEPS"), env.get("SLOWCLOCK_SERIALIZE"));
            parts.add(settings.startsWith("yes (") ? settings.substring("yes (".length(), settings.length() - 1) : settings);
        }
        return parts.isEmpty() ? "java alone" : String.join("; ", parts);
    }
}
