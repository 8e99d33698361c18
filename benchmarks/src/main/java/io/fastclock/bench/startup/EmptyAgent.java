package io.fastclock.bench.startup;

import java.lang.instrument.Instrumentation;

/** A premain that does nothing: the baseline cost of any -javaagent (agent jar opened, instrument lib loaded). */
public final class EmptyAgent {
    private EmptyAgent() {}

    public static void premain(String args, Instrumentation inst) {
        // nothing
    }
}
