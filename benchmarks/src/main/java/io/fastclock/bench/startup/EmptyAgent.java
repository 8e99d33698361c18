package io.fastclock.bench.startup;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;

/**
 * A premain that does nothing: the baseline cost of any -javaagent (agent jar opened, instrument lib
 * loaded). With the argument {@value #TRANSFORMER} it registers a retransformation-capable transformer
 * that changes nothing, as fastclock's is registered: the JVM's own cost of a class-file hook, which
 * every class loaded then pays before fastclock's code runs.
 */
public final class EmptyAgent {
    public static final String TRANSFORMER = "transformer";

    private EmptyAgent() {}

    public static void premain(String args, Instrumentation inst) {
        if (TRANSFORMER.equals(args)) {
            inst.addTransformer(new NoChange(), true);
        }
    }

    /** Returns null for every class: the class file is left as it was. */
    public static final class NoChange implements ClassFileTransformer {}
}
