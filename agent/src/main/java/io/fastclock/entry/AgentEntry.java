package io.fastclock.entry;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.lang.instrument.Instrumentation;
import java.lang.invoke.MethodHandles;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.security.CodeSource;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * The only class of fastclock.jar that the application's class loader can load (Premain-Class,
 * Agent-Class and Main-Class). It holds nothing: no Instrumentation. It checks that the JVM called
 * it, then hands over to the agent's own module, which {@link PrivateModule} defines from the jar's
 * {@code .classdata} resources in a layer and loader of its own, whose packages are neither exported
 * nor opened to any module the application can load classes into.
 *
 * <p>At start=background, the default, premain checks its caller, copies the settings' system
 * properties and starts the thread {@value #THREAD_NAME}, which does the rest while main runs: main
 * waits for nothing fastclock defines, reads or times. On a machine whose system clocks are fast, with
 * plain settings, the entry answers before the module exists ({@link EntryState},
 * {@link FastClocksAtEntry}).
 *
 * <p>Its helpers (the other classes of this package) are not on the class path either: they are
 * defined from this class's own jar's {@value #HELPERS} entries, once ({@link #HELPERS_DEFINED}),
 * before any of them is called; those that define the module, once, on the way there
 * ({@link ModuleHelpers}). A class of the same name that someone else defined first (application code can
 * define classes into this package with {@code MethodHandles.privateLookupIn(AgentEntry.class, ...)},
 * or put one on the class path before this jar) makes that definition fail, and the entry then
 * refuses to start: the Instrumentation only ever reaches classes the entry defined.
 */
public final class AgentEntry extends ClassValue<String> implements Runnable {
    /** The helpers' class files, {@code <simple name>.classdata}, listed one per line in {@value #HELPER_LIST}. */
    static final String HELPERS = "META-INF/fastclock/entry/";
    static final String HELPER_LIST = HELPERS + "classes";
    static final String THREAD_NAME = "fastclock-start";
    /**
     * How long the start thread waits before it does anything: the JVM's own start and main's first
     * steps run without it beside them on a small machine, and a JVM that ends sooner (a command-line
     * tool) never pays for fastclock at all.
     */
    static final long START_DELAY_MS = 20;
    private static final String JVM_INSTRUMENTATION = "sun.instrument.InstrumentationImpl";
    static final String PREMAIN = "premain";
    static final String AGENTMAIN = "agentmain";
    static final String MAIN = "main";
    /** {@code start}'s variable, read on premain's thread; the start thread reads the others. */
    static final String START_VARIABLE = "FASTCLOCK_START";

    /**
     * Defines the helpers, once, for the first thread that asks, and answers "" when every one is this
     * jar's, else why the entry does nothing ({@link #helpersRefusal}). A final field, and a ClassValue:
     * the value is computed by this class's {@link #computeValue} and nothing can set it. Code that
     * reaches it (privateLookupIn reads private fields) can only ask it sooner or remove the value,
     * after which defining the helpers again fails and the entry refuses; it never makes the entry
     * answer "ours" for a class it did not define. Not a FutureTask: its VarHandles cost main
     * a millisecond; not a class of its own: it could be forged before an attach loads it.
     */
    private static final AgentEntry HELPERS_DEFINED = new AgentEntry(null, null, null);
    /** One thread at a time defines the helpers: a second, failing, must not give its answer. */
    private static final Object HELPERS_LOCK = new Object();

    private final String args;
    /** The fastclock.* system properties as premain saw them, before any application code ran. */
    private final Map<String, String> properties;
    /** Cleared as the start thread begins: from then on only its stack holds the Instrumentation. */
    private Instrumentation inst;

    private AgentEntry(String args, Instrumentation inst, Map<String, String> properties) {
        this.args = args;
        this.inst = inst;
        this.properties = properties;
    }

    public static void premain(String args, Instrumentation inst) {
        StackWalker walker = classRetainingWalker();
        if (walker != null) {
            agent(PREMAIN, args, inst, walker.getCallerClass());
        }
    }

    public static void agentmain(String args, Instrumentation inst) {
        StackWalker walker = classRetainingWalker();
        if (walker != null) {
            agent(AGENTMAIN, args, inst, walker.getCallerClass());
        }
    }

    /** {@code java -jar fastclock.jar}: the doctor and the commands. */
    public static void main(String[] args) {
        String refusal = helpersRefusal();
        if (refusal != null) {
            System.err.println("fastclock: main refused: " + oneLine(refusal));
            System.exit(1);
            return;
        }
        refusal = CallerCheck.refusalForMain();
        if (refusal == null) {
            refusal = ModuleHelpers.REFUSAL;
        }
        if (refusal != null) {
            System.err.println("fastclock: main refused: " + oneLine(refusal));
            return;
        }
        try {
            PrivateModule.define(true).launchCommandLine(args);
        } catch (Exception e) {
            System.err.println("fastclock: cannot start: " + oneLine(String.valueOf(e)));
            System.exit(1);
        }
    }

    /**
     * A walker that gives classes, or null (the start line saying why) where a SecurityManager
     * denies one to this jar: the agent then stays off, as it does for any failure to start.
     */
    private static StackWalker classRetainingWalker() {
        try {
            return StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);
        } catch (SecurityException e) {
            notStarted(e);
            return null;
        }
    }

    /**
     * @param caller who called premain or agentmain, asked in their own frames (getCallerClass skips the
     *     reflection frames between; cheaper at start-up than walking the stack, whose first use spins a
     *     lambda). The walker is not kept: one that retains classes is a right under a SecurityManager.
     */
    private static void agent(String how, String args, Instrumentation inst, Class<?> caller) {
        try {
            String refusal = refusalForAgent(inst, caller);
            if (refusal != null) {
                System.err.println("fastclock: " + how + " refused: " + oneLine(refusal));
                return;
            }
            boolean premain = how.equals(PREMAIN);
            Map<String, String> properties = premain ? settingsProperties(System.getProperties()) : null;
            if (premain && startsInBackground(args, properties, System.getenv(START_VARIABLE))) {
                Thread t = new Thread(new AgentEntry(args, inst, properties), THREAD_NAME);
                t.setDaemon(true);
                t.start();
                return;
            }
            refusal = helpersRefusal();
            if (refusal != null) {
                System.err.println("fastclock: " + how + " refused: " + oneLine(refusal));
                return;
            }
            if (premain && EntryState.inactiveOnFastClocks(EntrySettings.read(args, properties, System.getenv()), inst)) {
                return;
            }
            if (ModuleHelpers.REFUSAL != null) {
                System.err.println("fastclock: " + how + " refused: " + oneLine(ModuleHelpers.REFUSAL));
                return;
            }
            PrivateModule.define(false).launchAgent(how, args, inst, null);
        } catch (Throwable t) {
            notStarted(t);
        }
    }

    /**
     * The start thread: after {@value #START_DELAY_MS} ms, defines the helpers and hands over to
     * {@link BackgroundStart}. The Runnable, reachable from the Thread object by code that can read
     * java.lang's private fields (sun.misc.Unsafe, or JDK 11's illegal-access=permit: no agent can keep
     * those out, docs/ISOLATION.md), drops the Instrumentation as the thread begins. A JVM that ends
     * first does not wait for it (daemon).
     */
    @Override
    public void run() {
        Instrumentation handed = inst;
        inst = null;
        pause(START_DELAY_MS);
        try {
            String refusal = helpersRefusal();
            if (refusal != null) {
                System.err.println("fastclock: premain refused: " + oneLine(refusal));
                return;
            }
            BackgroundStart.start(args, handed, properties);
        } catch (Throwable t) {
            notStarted(t);
        }
    }

    /** {@link #HELPERS_DEFINED}'s value, for AgentEntry.class. */
    @Override
    protected String computeValue(Class<?> type) {
        String refusal = defineHelpers(false);
        return refusal == null ? "" : refusal;
    }

    /** Null when the helpers are this jar's, defined by the entry (here, or on another of its threads). */
    private static String helpersRefusal() {
        String refusal;
        synchronized (HELPERS_LOCK) {
            refusal = HELPERS_DEFINED.get(AgentEntry.class);
        }
        return refusal.isEmpty() ? null : refusal;
    }

    /** Sleeps that long, whatever interrupts the thread meanwhile. */
    static void pause(long millis) {
        long deadline = System.nanoTime() + millis * 1_000_000L;
        for (long left; (left = deadline - System.nanoTime()) > 0; ) {
            try {
                Thread.sleep(left / 1_000_000L + 1);
            } catch (InterruptedException e) {
                // an application interrupting every thread does not stop fastclock's threads
            }
        }
    }

    /**
     * premain and agentmain are called by the JVM's java.instrument (sun.instrument.InstrumentationImpl,
     * through reflection, which StackWalker hides) with the JVM's own Instrumentation; anything else
     * is application code, and is refused.
     *
     * @param caller the class that called premain/agentmain
     * @return null when the JVM called premain/agentmain with its own Instrumentation, else why not
     */
    static String refusalForAgent(Instrumentation inst, Class<?> caller) {
        if (inst == null) {
            return "no Instrumentation";
        }
        if (!isJvmInstrumentation(inst.getClass())) {
            return "not the JVM's Instrumentation (" + inst.getClass().getName() + ")";
        }
        // An InstrumentationImpl that the JVM did not make (sun.misc.Unsafe.allocateInstance gives the
        // class path one, with no native agent behind it) comes only with another caller.
        if (caller == null || !isJvmInstrumentation(caller)) {
            return "called by " + (caller == null ? "nothing" : caller.getName()) + ", not by the JVM";
        }
        return null;
    }

    private static boolean isJvmInstrumentation(Class<?> c) {
        Module m = c.getModule();
        return c.getName().equals(JVM_INSTRUMENTATION) && m.isNamed() && "java.instrument".equals(m.getName())
                && m.getLayer() == ModuleLayer.boot();
    }

    /**
     * start, with the settings' precedence (the first {@code start=} of the agent arguments, then
     * {@code -Dfastclock.start}, then {@value #START_VARIABLE} where not blank): background, the
     * default, or not. A bad value is not background, so that the module rejects it before main runs.
     */
    static boolean startsInBackground(String agentArgs, Map<String, String> properties, String variable) {
        String start = null;
        if (agentArgs != null) {
            for (String pair : agentArgs.split(",", -1)) {
                int eq = pair.indexOf('=');
                if (eq >= 0 && pair.substring(0, eq).trim().equals("start")) {
                    start = pair.substring(eq + 1);
                    break;
                }
            }
        }
        if (start == null) {
            start = properties.get("fastclock.start");
        }
        if (start == null && variable != null && !variable.trim().isEmpty()) {
            start = variable;
        }
        return start == null || start.trim().equalsIgnoreCase("background");
    }

    /**
     * The settings' system properties, copied on premain's thread: main runs before the agent reads
     * its settings, and a property the application sets meanwhile (fastclock.library, fastclock.sysfs)
     * must not choose what the agent loads or believes.
     */
    static Map<String, String> settingsProperties(Properties system) {
        Map<String, String> copy = new HashMap<>();
        for (String name : system.stringPropertyNames()) {
            if (name.startsWith("fastclock.")) {
                copy.put(name, system.getProperty(name));
            }
        }
        return Collections.unmodifiableMap(copy);
    }

    /**
     * Defines helpers from this class's own jar (never through a class loader's search, which the
     * class path can shadow), in this class's loader and package: those every start needs, once
     * ({@link #HELPERS_DEFINED}); the module's ({@link #forTheModule}) once, from {@link ModuleHelpers}'s
     * initialiser, on the way to the module (a machine whose system clocks are fast never needs them).
     *
     * @return null when all were defined here, else why not
     */
    static String defineHelpers(boolean moduleOnes) {
        try {
            MethodHandles.Lookup here = MethodHandles.lookup();
            try (JarFile jar = new JarFile(ownJar(), false)) {
                for (String line : helperNames(jar)) {
                    String helper = line.trim();
                    if (forTheModule(helper) != moduleOnes) {
                        continue;
                    }
                    JarEntry entry = jar.getJarEntry(HELPERS + helper + ".classdata");
                    if (entry == null) {
                        return "fastclock.jar lacks its entry class " + helper;
                    }
                    byte[] bytes;
                    try (InputStream in = jar.getInputStream(entry)) {
                        bytes = in.readAllBytes();
                    }
                    try {
                        here.defineClass(bytes);
                    } catch (LinkageError e) {
                        return "a class named " + AgentEntry.class.getPackageName() + "." + helper
                                + " was defined by other code before fastclock's (" + e + ")";
                    }
                }
            }
            return null;
        } catch (IOException | IllegalAccessException | RuntimeException | LinkageError e) {
            return "cannot define the entry's classes: " + e;
        }
    }

    /** The helpers that define the agent's module, for premain, agentmain and main alike. */
    static boolean forTheModule(String helper) {
        return helper.startsWith("PrivateModule");
    }

    private static String[] helperNames(JarFile jar) throws IOException {
        JarEntry list = jar.getJarEntry(HELPER_LIST);
        if (list == null) {
            throw new IOException("fastclock.jar has no " + HELPER_LIST);
        }
        try (InputStream in = jar.getInputStream(list)) {
            // split on one plain character: no regular expression compiled at start-up
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).trim().split("\n");
        }
    }

    /** The jar this class was loaded from, by its code source. */
    static File ownJar() throws IOException {
        CodeSource source = AgentEntry.class.getProtectionDomain().getCodeSource();
        if (source == null || source.getLocation() == null) {
            throw new IOException("cannot find fastclock.jar (no code source)");
        }
        try {
            File file = new File(source.getLocation().toURI());
            if (!file.isFile()) {
                throw new IOException("fastclock must run from its jar, not " + file);
            }
            return file;
        } catch (URISyntaxException | IllegalArgumentException e) {
            throw new IOException("cannot find fastclock.jar: " + e, e);
        }
    }

    static void notStarted(Throwable t) {
        System.err.println("fastclock: agent not started, the application runs on the system clocks: "
                + oneLine(String.valueOf(t)));
    }

    /**
     * The one-line rule for what this class prints (a caller's or an Instrumentation's class name,
     * which the application chooses and a class file may spell with a newline; an exception's
     * message, which may hold the jar's path): control characters, DEL, the C1 controls and U+2028/9
     * as {@code \\uXXXX}. The same rule as the agent module's io.fastclock.config.OneLine, which this
     * class cannot use (that module exports nothing to the class path).
     */
    static String oneLine(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0) || c == '\u2028' || c == '\u2029') {
                String hex = Integer.toHexString(c);
                sb.append("\\u").append("0000", hex.length(), 4).append(hex);
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }
}
