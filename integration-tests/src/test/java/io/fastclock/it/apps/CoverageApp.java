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
        check("plain", ReferenceClocks.millis(), PlainCalls.read());
        check("constructor", ReferenceClocks.millis(), new ConstructorCalls().value);
        check("staticInit", ReferenceClocks.millis(), StaticInitCalls.VALUE);
        check("lambda", ReferenceClocks.millis(), LambdaCalls.read());
        check("methodRef", ReferenceClocks.millis(), MethodRefCalls.read());
        check("defaultMethod", ReferenceClocks.millis(), new DefaultMethodCalls() {}.read());
        check("isolatedLoader", ReferenceClocks.millis(), IsolatedLoader.readThroughIsolatedClass());
        checkNanos("nanoLambda", ReferenceClocks.nanos(), LambdaCalls.nanos());
        System.out.println("backends=" + ReferenceClocks.backends().replace(' ', ','));
        System.out.println("fastclock.active=" + System.getProperty("fastclock.active"));
    }

    /** {@code before}: the reference read just before the value, as the argument left of it. */
    private static void check(String kind, long before, long millis) {
        String off = Bracket.millis(kind, before, millis, 1000, 1);
        System.out.println(kind + "=" + (off == null ? "ok" : "WRONG " + off));
    }

    private static void checkNanos(String kind, long before, long nanos) {
        String off = Bracket.nanos(kind, before, nanos, 1_000_000_000L, 1_000_000_000L);
        System.out.println(kind + "=" + (off == null ? "ok" : "WRONG " + off));
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
