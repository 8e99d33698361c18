package io.fastclock.it.apps;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.instrument.Instrumentation;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.ServiceLoader;
import java.util.concurrent.Callable;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * Plays application code on the class path (no flags) and tries every right fastclock must not
 * give it; prints what it got as key=value lines, which the test compares with and without the
 * agent. Args: the agent jar, and optionally a trigger file to wait for (the attach case).
 *
 * <ol>
 *   <li>JDK packages exported or opened to this module; jdk.internal.misc.Unsafe and the boot
 *       loader's native libraries.</li>
 *   <li>An Instrumentation in any static field of any agent class it can load: from its own class
 *       loader (every .class entry of the jar), and from the loader of fastclock's module (as a
 *       test-only probe agent finds it, or behind fastclock's MBean or its threads).</li>
 *   <li>Every entry point it can call: premain, agentmain (detach), main, the agent module's service
 *       (premain, agentmain, detach, and main: the commands); each must throw or say "refused".</li>
 *   <li>The clock: FastClock's fields, the backends' fields, ClockRegistry.install.</li>
 * </ol>
 */
public final class RightsProbeApp {
    private RightsProbeApp() {}

    public static void main(String[] args) throws Throwable {
        AgentVerdict.await(); // what the agent holds once it decided (JNA, the runtime's backends)
        Path jar = Paths.get(args[0]);
        if (args.length > 1) {
            Path trigger = Paths.get(args[1]);
            System.out.println("waiting=1");
            System.out.flush();
            long deadline = System.nanoTime() + 120_000_000_000L;
            while (!Files.exists(trigger) && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
        }
        Module me = RightsProbeApp.class.getModule();
        System.out.println("exportedToMe=" + exportedOrOpenedToMe(me));
        System.out.println("unsafe=" + tryCall("jdk.internal.misc.Unsafe", "getUnsafe"));
        System.out.println("bootLibraries=" + tryCall("jdk.internal.loader.BootLoader", "getNativeLibraries"));
        System.out.println("vmSupport=" + tryCall("jdk.internal.vm.VMSupport", "getAgentProperties"));

        List<Class<?>> agentClasses = new ArrayList<>();
        List<String> classNames = new ArrayList<>();
        try (JarFile jf = new JarFile(jar.toFile())) {
            for (Enumeration<JarEntry> e = jf.entries(); e.hasMoreElements();) {
                String name = e.nextElement().getName();
                if (name.endsWith(".class") && !name.startsWith("META-INF/")) {
                    classNames.add(name.substring(0, name.length() - 6).replace('/', '.'));
                } else if (name.startsWith("META-INF/fastclock/entry/") && name.endsWith(".classdata")) {
                    // the entry's helpers, which AgentEntry defines itself
                    classNames.add("io.fastclock.entry." + name.substring(name.lastIndexOf('/') + 1, name.length() - 10));
                } else if (name.startsWith("META-INF/fastclock/entry-state/") && name.endsWith(".classdata")) {
                    // the entry's reader of the agent properties, defined in a loader of the entry's own
                    classNames.add("io.fastclock.entry.state." + name.substring(name.lastIndexOf('/') + 1, name.length() - 10));
                } else if (name.endsWith(".classdata")) {
                    classNames.add(name.substring(name.indexOf("io/"), name.length() - 10).replace('/', '.'));
                }
            }
        }
        int loadableHere = 0;
        for (String name : classNames) {
            try {
                Class<?> c = Class.forName(name, false, RightsProbeApp.class.getClassLoader());
                agentClasses.add(c);
                // The boot runtime's classes load by name from anywhere (the boot loader answers), but only
                // FastClock's package is exported: a class of another package gives its Class object, no more.
                if (!isPublicSurface(name) && c.getModule().isExported(c.getPackageName(), me)) {
                    loadableHere++;
                }
            } catch (ClassNotFoundException | LinkageError e) {
                // not on this loader
            }
        }
        System.out.println("agentClassesLoadableFromClassPath=" + loadableHere);
        ClassLoader agentLoader = loaderBehindTheAgent();
        int loadableBehind = 0;
        if (agentLoader != null) {
            for (String name : classNames) {
                try {
                    agentClasses.add(Class.forName(name, false, agentLoader));
                    loadableBehind++;
                } catch (ClassNotFoundException | LinkageError e) {
                    // not there
                }
            }
        }
        System.out.println("agentLoaderFound=" + (agentLoader != null));
        int[] fields = staticFieldsReached(agentClasses);
        System.out.println("staticFieldsReadable=" + fields[0]);
        System.out.println("instrumentationFound=" + fields[1]);
        System.out.println("privateLookups=" + privateLookups(agentClasses));
        int[] jna = jnaReached(agentLoader);
        System.out.println("jnaFoundFromThreads=" + jna[0]);
        System.out.println("jnaCalls=" + jna[1]);

        // Entry points.
        System.out.println("forgedInstrumentation=" + (forgedJvmInstrumentation() != null));
        EntryCalls entries = callEntries(agentClasses, agentLoader);
        System.out.println("entryCalls=" + entries.calls + "/" + entries.threw + EntryCalls.note("first threw", entries.firstThrew));
        System.out.println("entryCallsHonoured=" + entries.honoured + EntryCalls.note("first", entries.firstHonoured));
        System.out.println("serviceCalls=" + entries.service);

        // The clock.
        System.out.println("clockChanged=" + tryToChangeTheClock());
        MethodHandle systemNanoTime = MethodHandles.lookup().findStatic(System.class, "nanoTime", MethodType.methodType(long.class));
        long worst = 0;
        for (int i = 0; i < 1000; i++) {
            long before = (long) systemNanoTime.invokeExact();
            long mine = System.nanoTime(); // rewritten when fastclock is active
            long after = (long) systemNanoTime.invokeExact();
            worst = Math.max(worst, Math.max(before - mine, mine - after));
        }
        System.out.println("nanoTimeOutsideItsReferenceNanos=" + Math.max(0, worst));
        System.out.println("done=1");
    }

    /**
     * What fastclock shows the application by design: the entry class of its jar and the boot
     * runtime that rewritten call sites link to (docs/ISOLATION.md, "What remains").
     */
    static boolean isPublicSurface(String className) {
        return className.startsWith("io.fastclock.entry.") || className.startsWith("io.fastclock.runtime.");
    }

    /** Packages of boot-layer modules exported or opened to this module that are not so to everyone. */
    static String exportedOrOpenedToMe(Module me) {
        TreeSet<String> out = new TreeSet<>();
        for (Module m : ModuleLayer.boot().modules()) {
            for (String p : m.getPackages()) {
                if (m.isExported(p, me) && !m.isExported(p)) {
                    out.add(m.getName() + "/" + p + ":exported");
                }
                if (m.isOpen(p, me) && !m.isOpen(p)) {
                    out.add(m.getName() + "/" + p + ":open");
                }
            }
        }
        return out.isEmpty() ? "none" : String.join(",", out);
    }

    static String tryCall(String className, String method) {
        try {
            Method m = Class.forName(className).getMethod(method);
            Object result = m.invoke(null);
            return result == null ? "denied(null)" : "GRANTED";
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return "denied";
        }
    }

    /**
     * The loader of fastclock's module as the probe agent finds it (IsolationIT gives one in every mode,
     * a test-only capability the application does not have), else the class loader of fastclock's MBean,
     * or the context loader of a fastclock thread.
     */
    static ClassLoader loaderBehindTheAgent() throws InterruptedException {
        ClassLoader probed = AgentLoaderProbe.agentLoader(10_000);
        if (probed != null) {
            return probed;
        }
        try {
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            ObjectName name = new ObjectName("io.fastclock:type=FastClock");
            if (server.isRegistered(name)) {
                ClassLoader l = server.getClassLoaderFor(name);
                if (l != null && l != RightsProbeApp.class.getClassLoader()) {
                    return l;
                }
            }
        } catch (Exception | LinkageError e) {
            // no JMX here
        }
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            ClassLoader l = t.getName().startsWith("fastclock") ? t.getContextClassLoader() : null;
            if (l != null && l != RightsProbeApp.class.getClassLoader() && l != ClassLoader.getPlatformClassLoader()) {
                return l;
            }
        }
        return null;
    }

    /**
     * Issue 35's first door: a full-privilege Lookup into a class of fastclock's (its package open to
     * this module). On 26aadc6 the boot runtime sat in the boot loader's unnamed module, which opens
     * every package: privateLookupIn(FastClock) was granted, and with it defineClass into the boot loader.
     */
    static int privateLookups(List<Class<?>> classes) {
        int granted = 0;
        for (Class<?> c : classes) {
            if (c.getClassLoader() == RightsProbeApp.class.getClassLoader()) {
                // The jar's class-path surface (AgentEntry, with -javaagent on the class path): this
                // loader's unnamed module is the application's own, with or without fastclock.
                continue;
            }
            try {
                MethodHandles.privateLookupIn(c, MethodHandles.lookup());
                granted++;
            } catch (IllegalAccessException | SecurityException | IllegalArgumentException e) {
                // refused
            }
        }
        return granted;
    }

    /**
     * Issue 35's second door: JNA, which fastclock loads with native access. {JNA classes found through
     * a loader taken from any thread (its context loader, its class's loader), JNA calls that ran:
     * NativeLibrary.getProcess() through any loader found, the test-only probe's included}. On 26aadc6
     * JNA's cleaner thread led to an automatic module that exported everything.
     */
    static int[] jnaReached(ClassLoader agentLoader) {
        List<ClassLoader> fromThreads = new ArrayList<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            fromThreads.add(t.getContextClassLoader());
            fromThreads.add(t.getClass().getClassLoader());
        }
        int found = 0;
        int calls = 0;
        List<ClassLoader> all = new ArrayList<>(fromThreads);
        all.add(agentLoader);
        for (int i = 0; i < all.size(); i++) {
            ClassLoader l = all.get(i);
            if (l == null || l == RightsProbeApp.class.getClassLoader() || l == ClassLoader.getPlatformClassLoader()) {
                continue;
            }
            Class<?> nativeLibrary;
            try {
                nativeLibrary = Class.forName("com.sun.jna.NativeLibrary", false, l);
            } catch (ClassNotFoundException | LinkageError e) {
                continue;
            }
            if (i < fromThreads.size()) {
                found++;
            }
            try {
                nativeLibrary.getMethod("getProcess").invoke(null);
                calls++;
            } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
                // not callable from here
            }
        }
        return new int[] {found, calls};
    }

    /** {readable static fields, Instrumentation instances among them}. */
    static int[] staticFieldsReached(List<Class<?>> classes) {
        int readable = 0;
        int instrumentation = 0;
        for (Class<?> c : classes) {
            Field[] declared;
            try {
                declared = c.getDeclaredFields();
            } catch (LinkageError e) {
                continue;
            }
            for (Field f : declared) {
                if (!Modifier.isStatic(f.getModifiers()) || f.getType().isPrimitive()) {
                    continue;
                }
                try {
                    f.setAccessible(true);
                    Object v = f.get(null);
                    if (!isPublicSurface(c.getName())) {
                        readable++;
                    }
                    if (v instanceof Instrumentation || holdsInstrumentation(v)) {
                        instrumentation++;
                    }
                } catch (RuntimeException | IllegalAccessException | LinkageError e) {
                    // not reachable: what fastclock must guarantee
                }
            }
        }
        return new int[] {readable, instrumentation};
    }

    /** An Instrumentation one field away from {@code v} (the agent's objects held in static fields). */
    static boolean holdsInstrumentation(Object v) {
        if (v == null) {
            return false;
        }
        for (Class<?> c = v.getClass(); c != null && c != Object.class; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (Modifier.isStatic(f.getModifiers()) || f.getType().isPrimitive()) {
                    continue;
                }
                try {
                    f.setAccessible(true);
                    if (f.get(v) instanceof Instrumentation) {
                        return true;
                    }
                } catch (RuntimeException | IllegalAccessException | LinkageError e) {
                    // not reachable
                }
            }
        }
        return false;
    }

    /**
     * Calls every entry it can find with a null, a fake and a forged Instrumentation: the forged one is
     * the JDK's own InstrumentationImpl, allocated with sun.misc.Unsafe (no constructor, no native
     * agent behind it), which premain and agentmain refuse for their caller and the agent module's
     * service for what the JVM's constructor would have recorded.
     */
    static EntryCalls callEntries(List<Class<?>> classes, ClassLoader agentLoader) {
        Instrumentation fake = (Instrumentation) Proxy.newProxyInstance(RightsProbeApp.class.getClassLoader(),
                new Class<?>[] {Instrumentation.class}, (proxy, method, margs) -> {
                    throw new UnsupportedOperationException("fake");
                });
        Object forged = forgedJvmInstrumentation();
        Object[] instrumentations = forged == null ? new Object[] {null, fake} : new Object[] {null, fake, forged};
        EntryCalls calls = new EntryCalls();
        PrintStream stderr = System.err;
        System.setErr(new PrintStream(calls.tee(stderr), true));
        try {
            for (Class<?> c : classes) {
                for (String name : new String[] {"premain", "agentmain"}) {
                    Method m;
                    try {
                        m = c.getMethod(name, String.class, Instrumentation.class);
                    } catch (NoSuchMethodException | LinkageError e) {
                        continue;
                    }
                    for (Object inst : instrumentations) {
                        calls.call(name + "(detach)", () -> m.invoke(null, "detach", inst));
                        calls.call(name + "(mode=on)", () -> m.invoke(null, "mode=on", inst));
                    }
                }
            }
            if (agentLoader != null) {
                for (@SuppressWarnings("rawtypes") Function f : ServiceLoader.load(Function.class, agentLoader)) {
                    @SuppressWarnings("unchecked")
                    Function<Object[], Object> entry = f;
                    for (Object inst : instrumentations) {
                        calls.service++;
                        calls.call("service detach", () -> entry.apply(new Object[] {"detach", null, inst}));
                        calls.call("service agentmain", () -> entry.apply(new Object[] {"agentmain", "mode=on", inst}));
                        // The commands, in the agent's module (native access, the host's settings): honoured,
                        // "help" prints the usage and exits this JVM before "done=1".
                        calls.call("service main", () -> entry.apply(new Object[] {"main", new String[] {"help"}}));
                    }
                }
            }
        } finally {
            System.setErr(stderr);
        }
        return calls;
    }

    /**
     * The entry calls made, and those honoured: a call that neither threw nor said, on stderr while it
     * ran, that it was refused (the agent's refusals are one "fastclock: ... refused" line each).
     */
    static final class EntryCalls {
        private final ByteArrayOutputStream said = new ByteArrayOutputStream();
        int calls;
        int threw;
        int honoured;
        int service;
        String firstHonoured;
        String firstThrew;

        /** What goes to {@code out}, also kept here. */
        OutputStream tee(OutputStream out) {
            return new OutputStream() {
                @Override
                public void write(int b) throws IOException {
                    out.write(b);
                    said.write(b);
                }

                @Override
                public void write(byte[] b, int off, int len) throws IOException {
                    out.write(b, off, len);
                    said.write(b, off, len);
                }

                @Override
                public void flush() throws IOException {
                    out.flush();
                }
            };
        }

        static String note(String what, String text) {
            return text == null ? "" : " (" + what + ": " + text.trim().replace('\n', ' ') + ")";
        }

        void call(String what, Callable<?> entry) {
            calls++;
            int before = said.size();
            try {
                entry.call();
            } catch (Exception e) {
                threw++;
                if (firstThrew == null) {
                    firstThrew = what + ": " + (e.getCause() != null ? e.getCause() : e);
                }
                return;
            }
            String text = new String(said.toByteArray(), before, said.size() - before, StandardCharsets.UTF_8);
            if (!text.contains("refused")) {
                honoured++;
                if (firstHonoured == null) {
                    firstHonoured = what + " said '" + text + "'";
                }
            }
        }
    }

    /** An sun.instrument.InstrumentationImpl the JVM did not make, or null where sun.misc.Unsafe cannot make one. */
    static Object forgedJvmInstrumentation() {
        try {
            Class<?> unsafeClass = Class.forName("sun.misc.Unsafe");
            Field theUnsafe = unsafeClass.getDeclaredField("theUnsafe");
            theUnsafe.setAccessible(true);
            Object unsafe = theUnsafe.get(null);
            Class<?> impl = Class.forName("sun.instrument.InstrumentationImpl");
            return unsafeClass.getMethod("allocateInstance", Class.class).invoke(unsafe, impl);
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return null;
        }
    }

    /** What reflection gets of the clock state: "none" or what it changed. */
    static String tryToChangeTheClock() {
        List<String> changed = new ArrayList<>();
        Class<?> fastClock;
        try {
            fastClock = Class.forName("io.fastclock.runtime.FastClock", false, null);
        } catch (ClassNotFoundException e) {
            return "none(no runtime)";
        }
        List<Class<?>> state = new ArrayList<>();
        state.add(fastClock);
        try {
            // The registry's install is public, in a package exported to the agent's module alone; the
            // system clocks' backends are public: only the export stands between the two.
            Class<?> millisClock = Class.forName("io.fastclock.runtime.MillisClock", false, null);
            Class<?> nanosClock = Class.forName("io.fastclock.runtime.NanosClock", false, null);
            Class<?> epochClock = Class.forName("io.fastclock.runtime.EpochClock", false, null);
            Class<?> systemClocks = Class.forName("io.fastclock.runtime.SystemClocks", false, null);
            Class<?> registry = Class.forName("io.fastclock.boot.ClockRegistry", false, null);
            state.add(registry);
            state.add(Class.forName("io.fastclock.boot.InstalledClocks", false, null));
            Method install = registry.getMethod("install", millisClock, nanosClock, epochClock);
            Object millis = systemClocks.getField("MILLIS").get(null);
            Object nanos = systemClocks.getField("NANOS").get(null);
            // Reached at all is the leak: after the agent's own install it answers false anyway.
            Object accepted = install.invoke(null, millis, nanos, null);
            changed.add("ClockRegistry.install reached (" + accepted + ")");
        } catch (ClassNotFoundException e) {
            changed.add("no " + e.getMessage() + " to try"); // renamed: the probe would test nothing
        } catch (ReflectiveOperationException | RuntimeException e) {
            // refused
        }
        for (Class<?> target : state) {
            for (Field f : target.getDeclaredFields()) {
                if (!Modifier.isStatic(f.getModifiers())) {
                    continue;
                }
                try {
                    f.setAccessible(true);
                    Object backend = f.get(null);
                    try {
                        f.set(null, null);
                        changed.add(target.getSimpleName() + "." + f.getName() + " set");
                    } catch (IllegalAccessException | RuntimeException e) {
                        // static final: refused
                    }
                    if (backend != null) {
                        for (Class<?> c = backend.getClass(); c != null && c != Object.class; c = c.getSuperclass()) {
                            for (Field inner : c.getDeclaredFields()) {
                                try {
                                    inner.setAccessible(true);
                                    changed.add(c.getName() + "." + inner.getName() + " reachable");
                                } catch (RuntimeException e) {
                                    // not open to this module
                                }
                            }
                        }
                    }
                } catch (IllegalAccessException | RuntimeException e) {
                    // refused
                }
            }
        }
        return changed.isEmpty() ? "none" : String.join(",", changed);
    }
}
