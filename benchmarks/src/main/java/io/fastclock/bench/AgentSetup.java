package io.fastclock.bench;

/**
 * For benchmarks that run with and without the agent (run.sh adds -javaagent through
 * -jvmArgsAppend and sets the "agent" parameter to match): fails the fork when the label and the
 * JVM disagree, so a row can never be filed under the wrong set-up.
 */
final class AgentSetup {
    private AgentSetup() {}

    /** @param agent "none" (no agent) or "fastclock" (the agent attached, active or not as auto decides) */
    static void check(String agent) {
        String active = System.getProperty("fastclock.active");
        boolean attached = active != null;
        if (agent.equals("none") == attached) {
            throw new IllegalStateException("agent=" + agent + " but fastclock.active=" + active
                    + " (run.sh passes -jvmArgsAppend -javaagent:... with -p agent=fastclock)");
        }
        System.err.println("fastclock-bench: agent=" + agent + " fastclock.active=" + active);
    }
}
