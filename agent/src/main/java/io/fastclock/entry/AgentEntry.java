package io.fastclock.entry;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.lang.instrument.Instrumentation;
import java.lang.invoke.MethodHandles;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.security.CodeSource;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * The only class of fastclock.jar that the application's class loader can load (Premain-Class,
 * Agent-Class and Main-Class). It holds nothing: no Instrumentation. It checks that the JVM called
 * it, then hands over to the agent's own module, which {@link PrivateModule} defines from the jar's
 * {@code .classdata} resources in a layer and loader of its own, whose packages are neither exported
 * nor opened to any module the application can load classes into.
 *
 * <p>On a machine whose system clocks are fast, with plain settings, premain answers before the
 * module exists ({@link EntryState}, {@link FastClocksAtEntry}).
 *
 * <p>Its helpers (the other classes of this package) are not on the class path either: this class's
 * initialiser defines each of them itself, from its own jar's {@value #HELPERS} entries, before it
 * calls any of them; those that define and start the module, once, on the way there
 * ({@link ModuleHelpers}). A class of the same name that someone else defined first (application code can
 * define classes into this package with {@code MethodHandles.privateLookupIn(AgentEntry.class, ...)},
 * or put one on the class path before this jar) makes that definition fail, and the entry then
 * refuses to start: the Instrumentation only ever reaches classes this initialiser defined.
 */
public final class AgentEntry {
    /** The helpers' class files, {@code <simple name>.classdata}, listed one per line in {@value #HELPER_LIST}. */
    static final String HELPERS = "META-INF/fastclock/entry/";
    static final String HELPER_LIST = HELPERS + "classes";

    /**
     * Null when every helper is this jar's, defined here; else why the entry does nothing. Final: once
     * the initialiser has run, no code (short of sun.misc.Unsafe) can change the answer.
     */
    private static final String HELPERS_REFUSAL = defineHelpers(false);

    private AgentEntry() {}

    public static void premain(String args, Instrumentation inst) {
        StackWalker walker = classRetainingWalker();
        if (walker != null) {
            agent("premain", args, inst, walker.getCallerClass());
        }
    }

    public static void agentmain(String args, Instrumentation inst) {
        StackWalker walker = classRetainingWalker();
        if (walker != null) {
            agent("agentmain", args, inst, walker.getCallerClass());
        }
    }

    /** {@code java -jar fastclock.jar}: the doctor and the commands. */
    public static void main(String[] args) {
        if (HELPERS_REFUSAL != null) {
            System.err.println("fastclock: main refused: " + oneLine(HELPERS_REFUSAL));
            System.exit(1);
            return;
        }
        String refusal = CallerCheck.refusalForMain();
        if (refusal == null) {
            refusal = ModuleHelpers.REFUSAL;
        }
        if (refusal != null) {
            System.err.println("fastclock: main refused: " + oneLine(refusal));
            return;
        }
        try {
            PrivateModule.define(true).launch(new Object[] {"main", args});
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
        if (HELPERS_REFUSAL != null) {
            System.err.println("fastclock: " + how + " refused: " + oneLine(HELPERS_REFUSAL));
            return;
        }
        try {
            String refusal = CallerCheck.refusalForAgent(inst, caller);
            if (refusal != null) {
                System.err.println("fastclock: " + how + " refused: " + oneLine(refusal));
                return;
            }
            EntrySettings settings = how.equals("premain")
                    ? EntrySettings.read(args, System.getProperties(), System.getenv()) : null;
            if (settings != null && EntryState.inactiveOnFastClocks(settings, inst)) {
                return;
            }
            if (ModuleHelpers.REFUSAL != null) {
                System.err.println("fastclock: " + how + " refused: " + oneLine(ModuleHelpers.REFUSAL));
                return;
            }
            if (settings != null && settings.background()) {
                BackgroundStart.begin(args, inst, BackgroundStart.settingsProperties(System.getProperties()));
                return;
            }
            PrivateModule.define(false).launch(new Object[] {how, args, inst});
        } catch (Throwable t) {
            notStarted(t);
        }
    }

    /**
     * Defines helpers from this class's own jar (never through a class loader's search, which the
     * class path can shadow), in this class's loader and package: at initialisation those every start
     * needs; the module's ({@link #forTheModule}) once, from {@link ModuleHelpers}'s initialiser, on the
     * way to the module (a machine whose system clocks are fast never needs them).
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

    /** The helpers that define and start the agent's module, for premain, agentmain and main alike. */
    static boolean forTheModule(String helper) {
        return helper.startsWith("PrivateModule") || helper.startsWith("BackgroundStart");
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
