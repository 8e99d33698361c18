package io.fastclock.it.apps;

/** The smallest host application: it must always run, whatever the agent thinks of its settings. */
public final class HelloApp {
    public static void main(String[] args) {
        AgentVerdict.await();
        long millis = System.currentTimeMillis();
        long nanos = System.nanoTime();
        long reference = ReferenceClocks.millis();
        System.out.println("hello=ok");
        System.out.println("active=" + System.getProperty("fastclock.active"));
        System.out.println("backends=" + ReferenceClocks.backends().replace(' ', ','));
        System.out.println("millisPlausible=" + (Math.abs(millis - reference) < 1000));
        System.out.println("nanosPositive=" + (nanos != 0));
    }
}
