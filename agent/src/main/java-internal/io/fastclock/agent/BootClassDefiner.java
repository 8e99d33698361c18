package io.fastclock.agent;

import jdk.internal.misc.Unsafe;

/**
 * Calls jdk.internal.misc.Unsafe.defineClass directly, not through reflection: compiled apart
 * (agent/pom.xml, execution "jdk-internal-calls") with --add-exports, and usable only once
 * java.base exports jdk.internal.misc to the agent's module (BootstrapInjector does that first).
 * Through Method.invoke, JDK 17 inflates the accessor after 15 calls (a generated class, ~4 ms) and
 * JDK 18+ builds method handles for the six-argument call (~40 ms of lambda forms on JDK 25 here).
 */
final class BootClassDefiner {
    private BootClassDefiner() {}

    /** Defines the class in the bootstrap class loader (null loader, null protection domain). */
    static Class<?> define(String name, byte[] bytes) {
        return Unsafe.getUnsafe().defineClass(name, bytes, 0, bytes.length, null, null);
    }
}
