package io.fastclock.it.apps;

/**
 * What a program that runs past the agent's start-up sees. The suite forks its JVMs at the product's
 * default, start=background, whose verdict comes after main begins: a test of what follows the
 * verdict has its program wait for it here, as a longer program would, rather than move the verdict
 * before main. Waits only where ForkedJvm started the JVM with the agent ({@value #ENV}), until the
 * agent publishes its verdict ({@code fastclock.active}), at most a minute; prints nothing.
 */
public final class AgentVerdict {
    public static final String ENV = "IT_AGENT_AT_START";
    private static final long MOST_NANOS = 60_000_000_000L;

    private AgentVerdict() {}

    public static void await() {
        try {
            if (System.getenv(ENV) == null) {
                return;
            }
        } catch (SecurityException e) {
            return; // a SecurityManager from the command line: the test reads what the program sees at once
        }
        long start = System.nanoTime();
        while (System.getProperty("fastclock.active") == null && System.nanoTime() - start < MOST_NANOS) {
            try {
                Thread.sleep(2);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
