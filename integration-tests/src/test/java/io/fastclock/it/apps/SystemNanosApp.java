package io.fastclock.it.apps;

/**
 * Where the agent must leave nanoTime on the system clock: prints the backends, then how far the
 * rewritten reads fall from the real clocks (ContractApp's measurements, briefly).
 */
public final class SystemNanosApp {
    public static void main(String[] args) {
        System.out.println("backends=" + ReferenceClocks.backends().replace(' ', ','));
        ContractApp.nanosAgainstReference(300_000_000L);
        ContractApp.millisBounds(300_000_000L);
    }
}
