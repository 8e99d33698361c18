package io.fastclock.it.apps;

import java.io.InputStream;
import java.util.function.LongSupplier;

/**
 * One class per kind of call site, so the agent's debug report names each one it rewrote; each
 * value read is checked against the reference clock so a broken rewrite cannot pass silently.
 */
public final class CoverageApp {
    public static void main(String[] args) throws Exception {
        AgentVerdict.await();
        check("plain", PlainCalls.read());
        check("constructor", new ConstructorCalls().value);
        check("staticInit", StaticInitCalls.VALUE);
        check("lambda", LambdaCalls.read());
        check("methodRef", MethodRefCalls.read());
        check("defaultMethod", new DefaultMethodCalls() {}.read());
        check("isolatedLoader", IsolatedLoader.readThroughIsolatedClass());
        checkNanos("nanoLambda", LambdaCalls.nanos());
        System.out.println("backends=" + ReferenceClocks.backends().replace(' ', ','));
        System.out.println("fastclock.active=" + System.getProperty("fastclock.active"));
    }

    private static void check(String kind, long millis) {
        long reference = ReferenceClocks.millis();
        boolean ok = millis > reference - 1000 && millis <= reference + 1;
        System.out.println(kind + "=" + (ok ? "ok" : "WRONG " + millis + " vs " + reference));
    }

    private static void checkNanos(String kind, long nanos) {
        long reference = ReferenceClocks.nanos();
        boolean ok = Math.abs(nanos - reference) < 1_000_000_000L;
        System.out.println(kind + "=" + (ok ? "ok" : "WRONG " + nanos + " vs " + reference));
    }

    public static final class PlainCalls {
        static long read() {
            return System.currentTimeMillis();
        }
    }

    public static final class ConstructorCalls {
        final long value;

        ConstructorCalls() {
            value = System.currentTimeMillis();
        }
    }

    public static final class StaticInitCalls {
        static final long VALUE = System.currentTimeMillis();
    }

    public static final class LambdaCalls {
        static long read() {
            LongSupplier s = () -> System.currentTimeMillis();
            return s.getAsLong();
        }

        static long nanos() {
            LongSupplier s = () -> System.nanoTime();
            return s.getAsLong();
        }
    }

    public static final class MethodRefCalls {
        static long read() {
            LongSupplier s = System::currentTimeMillis;
            return s.getAsLong();
        }
    }

    public interface DefaultMethodCalls {
        default long read() {
            return System.currentTimeMillis();
        }
    }

    /**
     * Defines IsolatedCalls in a loader whose parent is the bootstrap loader. The class is named by
     * a string, never by a class literal, so the application loader never defines it: the one
     * "rewrote ...IsolatedCalls" line the agent prints is then this loader's copy.
     */
    public static final class IsolatedLoader extends ClassLoader {
        static final String ISOLATED_CALLS = "io.fastclock.it.apps.IsolatedCalls";

        IsolatedLoader() {
            super(null);
        }

        static long readThroughIsolatedClass() throws Exception {
            String name = ISOLATED_CALLS;
            byte[] bytes;
            try (InputStream in = CoverageApp.class.getResourceAsStream("/" + name.replace('.', '/') + ".class")) {
                bytes = in.readAllBytes();
            }
            IsolatedLoader loader = new IsolatedLoader();
            Class<?> isolated = loader.defineClass(name, bytes, 0, bytes.length);
            if (isolated.getClassLoader() != loader) {
                throw new IllegalStateException("not isolated");
            }
            return (long) isolated.getMethod("read").invoke(null);
        }
    }
}
