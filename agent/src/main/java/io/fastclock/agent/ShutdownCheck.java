package io.fastclock.agent;

/** Whether the JVM has begun to shut down, asked where a background start must then say nothing. */
final class ShutdownCheck {
    private ShutdownCheck() {}

    /** The JVM refuses new shutdown hooks once it has begun to shut down. */
    static boolean inProgress() {
        Thread unstarted = new Thread("fastclock-shutdown-check"); // only offered as a hook, never run
        try {
            Runtime.getRuntime().addShutdownHook(unstarted);
            Runtime.getRuntime().removeShutdownHook(unstarted);
            return false;
        } catch (IllegalStateException e) {
            return true;
        }
    }
}
