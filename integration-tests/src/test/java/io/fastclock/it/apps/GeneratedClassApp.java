package io.fastclock.it.apps;

import java.nio.file.Files;
import java.nio.file.Paths;

/**
 * Defines the class in file args[1], named args[0], in a class loader of its own, calls its
 * {@code static long read()} (a currentTimeMillis value), says whether the value is plausible, then
 * runs HelloApp, whose clock calls the agent rewrites.
 */
public final class GeneratedClassApp {
    private GeneratedClassApp() {}

    public static void main(String[] args) throws Exception {
        AgentVerdict.await();
        byte[] bytes = Files.readAllBytes(Paths.get(args[1]));
        Class<?> generated = new Loader().define(args[0], bytes);
        java.lang.reflect.Method read = generated.getMethod("read");
        long before = ReferenceClocks.millis();
        String off = Bracket.millis("generatedRead", before, (long) read.invoke(null), 1000, 1000);
        System.out.println("generatedRead=" + (off == null ? "ok" : "WRONG " + off));
        HelloApp.main(new String[0]);
    }

    private static final class Loader extends ClassLoader {
        Loader() {
            super(GeneratedClassApp.class.getClassLoader());
        }

        Class<?> define(String name, byte[] bytes) {
            return defineClass(name, bytes, 0, bytes.length);
        }
    }
}
