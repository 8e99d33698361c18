package io.fastclock.it.apps;

/** The smallest host application: it must always run, whatever the agent thinks of its settings. */
public final class HelloApp {
    public static void main(String[] args) {
        AgentVerdict.await();
        long before = ReferenceClocks.millis();
        long millis = System.currentTimeMillis();
        String millisOff = Bracket.millis("millisPlausible", before, millis, 1000, 1000);
        long nanos = System.nanoTime();
        System.out.println("hello=ok");
        System.out.println("active=" + System.getProperty("fastclock.active"));
        System.out.println("backends=" + ReferenceClocks.backends().replace(' ', ','));
        System.out.println("millisPlausible=" + (millisOff == null ? "true" : "false: " + millisOff));
        System.out.println("nanosPositive=" + (nanos != 0));
    }
}
