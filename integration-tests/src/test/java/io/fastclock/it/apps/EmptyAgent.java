package io.fastclock.it.apps;

import java.lang.instrument.Instrumentation;

/** A -javaagent that does nothing: shows what the JVM prints with any agent attached. */
public final class EmptyAgent {
    private EmptyAgent() {}

    public static void premain(String args, Instrumentation inst) {
        // nothing
    }
}
