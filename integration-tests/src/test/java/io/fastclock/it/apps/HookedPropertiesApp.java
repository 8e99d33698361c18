package io.fastclock.it.apps;

import java.io.File;
import java.lang.invoke.MethodHandles;
import java.lang.module.ResolvedModule;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A hostile application whose code runs on fastclock's own threads: its system class loader (run
 * before premain) replaces the system properties with a Properties of its own, whose getters walk the
 * stack and keep every class of fastclock's they find. From those it tries what a lookup into an open
 * package allows: every field of the agent module's ModuleReference (which its layer's configuration
 * gives any holder of a class of the module) and of the entry's class loader (which every helper of the
 * entry leads to), looking for the jar's bytes the module's classes are defined from, and a reader of
 * the module's own.
 */
public final class HookedPropertiesApp {
    static final Set<Class<?>> SEEN = Collections.synchronizedSet(new LinkedHashSet<>());
    /** One look at a time (the JDK reads properties as it initialises the classes a look uses). */
    static volatile boolean looking;
    /** A class file the hook defines into the entry's loader, once, as soon as it holds a helper (-Dhook.fake). */
    static byte[] fake;
    static volatile String fakeDefined = "not tried";

    /** -Djava.system.class.loader: it installs the hook before any agent runs. */
    public static final class Loader extends URLClassLoader {
        static {
            ClassLoader.registerAsParallelCapable();
        }

        public Loader(ClassLoader parent) {
            super(new URL[0], parent);
            String fakeFile = System.getProperty("hook.fake");
            if (fakeFile != null) {
                try {
                    fake = java.nio.file.Files.readAllBytes(java.nio.file.Paths.get(fakeFile));
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }
            System.setProperties(new HookedProperties(System.getProperties(), new Hooked()));
        }

        /** What java.instrument calls to add -javaagent's jar where a custom system class loader is in use. */
        void appendToClassPathForInstrumentation(String path) throws MalformedURLException {
            addURL(new File(path).toURI().toURL());
        }
    }

    /** -Djava.security.manager (JDK 23 and older): every permission granted, each check a look at the stack. */
    @SuppressWarnings({"deprecation", "removal"})
    public static final class Guard extends SecurityManager {
        /** Set once what a look uses is loaded: loading it asks for permissions, which would look again. */
        private static volatile boolean ready;

        public Guard() {
            Hooked.look(); // not yet installed: loads and links what a look uses
            ready = true;
        }

        @Override
        public void checkPermission(java.security.Permission perm) {
            if (ready) {
                Hooked.look();
            }
        }

        @Override
        public void checkPermission(java.security.Permission perm, Object context) {
            if (ready) {
                Hooked.look();
            }
        }
    }

    /** The hook: every read and write of the system properties looks at the stack. */
    static final class Hooked implements Runnable {
        @Override
        public void run() {
            look();
        }

        static void look() {
            synchronized (Hooked.class) {
                if (looking) {
                    return;
                }
                looking = true;
            }
            try {
                StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE).forEach(f -> {
                    Class<?> c = f.getDeclaringClass();
                    if (c.getName().startsWith("io.fastclock.")) {
                        SEEN.add(c);
                        if (fake != null && c.getName().startsWith("io.fastclock.entry.") && c.getClassLoader() != null
                                && c.getClassLoader().getClass().getName().equals("io.fastclock.entry.AgentEntry")) {
                            byte[] bytes = fake;
                            fake = null;
                            try {
                                MethodHandles.privateLookupIn(c, MethodHandles.lookup()).defineClass(bytes);
                                fakeDefined = "true";
                            } catch (Throwable t) {
                                fakeDefined = "false: " + t;
                            }
                        }
                    }
                });
            } catch (Throwable t) {
                // the JVM is still starting: nothing to see yet
            } finally {
                looking = false;
            }
        }
    }

    public static void main(String[] args) throws Exception {
        AgentVerdict.await();
        List<Class<?>> seen;
        synchronized (SEEN) {
            seen = new ArrayList<>(SEEN);
        }
        boolean moduleClass = false;
        boolean entryHelper = false;
        List<String> reached = new ArrayList<>();
        for (Class<?> c : seen) {
            if (c.getModule().isNamed() && c.getModule().getName().equals("io.fastclock.agent") && !moduleClass) {
                moduleClass = true;
                ResolvedModule resolved = c.getModule().getLayer().configuration().findModule("io.fastclock.agent").get();
                Object reference = resolved.reference();
                try {
                    Object reader = resolved.reference().open();
                    reached.add("a reader of the module (" + reader.getClass().getName() + ")");
                    bytesIn(reader, "the module's reader", reached, 3);
                } catch (Exception e) {
                    // refused: what the agent should answer
                }
                bytesIn(reference, "the module's reference", reached, 3);
            }
            if (c.getName().startsWith("io.fastclock.entry.") && c.getClassLoader() != null
                    && c.getClassLoader().getClass().getName().equals("io.fastclock.entry.AgentEntry")) {
                entryHelper = true;
                bytesIn(c.getClassLoader(), "the entry's loader", reached, 2);
            }
            for (ClassLoader l = c.getClassLoader(); l != null; l = l.getParent()) {
                if (l.getClass().getName().startsWith("io.fastclock.")) {
                    bytesIn(l, "a loader of " + c.getName() + " (" + l.getClass().getName() + ")", reached, 2);
                }
            }
        }
        // premain's set-up loader, whose unnamed module java.base exports jdk.internal.misc,
        // jdk.internal.module and (JDK 12+) jdk.internal.access to, and which opens every package: a class of it in hand is all of those.
        List<String> setup = new ArrayList<>();
        for (Class<?> c : seen) {
            ClassLoader l = c.getClassLoader();
            if (l != null && "fastclock-runtime-setup".equals(l.getName())) {
                setup.add(c.getName());
            }
        }
        System.out.println("setupClassesSeen=" + (setup.isEmpty() ? "none" : setup));
        System.out.println("moduleClassSeen=" + moduleClass);
        System.out.println("entryHelperSeen=" + entryHelper);
        System.out.println("bytesReached=" + (reached.isEmpty() ? "none" : String.join("; ", reached)));
        System.out.println("fakeDefined=" + fakeDefined);
        System.out.println("stolen=" + (System.getProperties().get("theft.loot") instanceof java.lang.instrument.Instrumentation));
    }

    /** Every byte[] of 64 KB or more reachable through the fields of o (a lookup into an open package gives them all). */
    static void bytesIn(Object o, String path, List<String> reached, int depth) {
        if (o == null || depth < 0) {
            return;
        }
        for (Class<?> c = o.getClass(); c != null && c != Object.class; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (Modifier.isStatic(f.getModifiers()) || f.getType().isPrimitive()) {
                    continue;
                }
                Object v;
                try {
                    v = MethodHandles.privateLookupIn(c, MethodHandles.lookup()).unreflectVarHandle(f).get(o);
                } catch (Throwable closed) {
                    continue; // a package not open to this module: what a sealed agent gives
                }
                if (v instanceof byte[] && ((byte[]) v).length >= 64 * 1024) {
                    reached.add(path + "." + f.getName() + " (" + ((byte[]) v).length + " bytes)");
                } else if (v != null && (v.getClass().getName().equals("io.fastclock.entry.JarSnapshot")
                        || v instanceof java.lang.module.ModuleReader)) {
                    reached.add(path + "." + f.getName() + " (a " + v.getClass().getName() + ")");
                } else if (v != null && !(v instanceof String) && !(v instanceof Class) && !(v instanceof ClassLoader && depth < 2)) {
                    bytesIn(v, path + "." + f.getName(), reached, depth - 1);
                }
            }
        }
    }
}
