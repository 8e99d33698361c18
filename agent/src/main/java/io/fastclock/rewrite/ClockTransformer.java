package io.fastclock.rewrite;

import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;
import java.util.Collections;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Rewrites clock calls, as {@link ClockReplacements} lists them, in the application's classes (those
 * the {@link ClassFilter} accepts) and in the JDK classes the {@link JdkScope} covers, both when they
 * load and when they are retransformed or redefined (it is registered as retransformation-capable,
 * so that classes loaded before the agent can be rewritten, and another agent's retransformation
 * keeps the rewrite). Returns null (no change) for unnamed classes, classes out of scope, classes
 * whose bytes do not name an owner in the table, and classes with nothing to rewrite. Never throws:
 * a class whose rewrite fails is left as it was, counted in its stats and reported to the listener.
 * The rewrite is {@link ConstantPoolRewriter}'s (no ASM class loaded); the {@link ClassRewriter}
 * fallback (ASM's, once the agent's module supplies it) takes the classes it hands over or fails on.
 * Before there is a fallback such a class is left as it was and listed ({@link #awaitingFallback}).
 *
 * <p>What it rewrites ({@link Scope}) changes as a whole: from premain on, every clock the settings
 * leave open goes to the runtime, whose FastClock serves the system clocks until the verdict; the
 * verdict narrows the scope to the clocks it chose. It also does two jobs for the boot runtime
 * ({@link RuntimePackages}): the runtime's FastClock, when retransformed, gets the bytes
 * {@link #switchTo} says (the switch from the system clocks to the chosen backends), and any other
 * definition of a class in the runtime's packages, by any loader, is refused.
 *
 * <p>Classes in named modules: a named module cannot link to {@code FastClock} unless it reads the
 * runtime's module. When the JVM calls the module-aware
 * {@link #transform(Module, ClassLoader, String, Class, ProtectionDomain, byte[])}, a rewritten class
 * in a named module is returned only if the {@code namedModuleGate} accepts its module (the agent adds
 * the read edge there and returns true); the default gate refuses, leaving such classes unchanged.
 */
public final class ClockTransformer implements ClassFileTransformer {
    /**
     * Given back for a definition the transformer refuses: not a class file, so the definition fails
     * with a ClassFormatError (an empty array would mean "unchanged").
     */
    private static final byte[] REFUSED = {(byte) 0xCA, (byte) 0xFE};

    /** What is rewritten, and where: changed as a whole. */
    public static final class Scope {
        final ClassFilter filter;
        final JdkScope jdk;
        final ClockReplacements table;
        final byte[][] owners;
        final ConstantPoolRewriter poolRewriter;

        public Scope(ClassFilter filter, JdkScope jdk, ClockReplacements table) {
            if (filter == null || jdk == null || table == null) {
                throw new NullPointerException("filter, jdk and table are required");
            }
            this.filter = filter;
            this.jdk = jdk;
            this.table = table;
            this.owners = ClassBytes.asciiNames(table.owners());
            this.poolRewriter = new ConstantPoolRewriter(table);
        }

        public ClassFilter filter() {
            return filter;
        }

        public JdkScope jdk() {
            return jdk;
        }

        public ClockReplacements table() {
            return table;
        }
    }

    private volatile Scope scope;
    private final RewriteStats stats;
    private final RewriteStats jdkStats;
    private volatile RewriteListener listener;
    private final Predicate<Module> namedModuleGate;
    private final RuntimeShadows shadows;
    private volatile ClassRewriter fallback;
    /**
     * Names of the classes this transformer changed (detach and a narrowed scope give them back their
     * own bytes). Not a ConcurrentHashMap: under contention it initialises ThreadLocalRandom, which may
     * be the very class being transformed (jdk=all rewrites it).
     */
    private final Set<String> changed = Collections.synchronizedSet(new HashSet<>());
    /** Names of the classes left unchanged because only the fallback could rewrite them and there was none. */
    private final Set<String> awaitingFallback = Collections.synchronizedSet(new HashSet<>());
    /**
     * Names of the classes seen while {@link #stopNoting} has not been called: the verdict needs to read
     * the class files only of the classes loaded before this transformer. Not a ConcurrentHashMap: under
     * contention it initialises ThreadLocalRandom, which may be the class being loaded.
     */
    private volatile Set<String> seen;
    /** The boot runtime's FastClock (the switch's class), or null where there is none (unit tests). */
    private final Class<?> fastClock;
    /** The rows FastClock's own clock calls are rewritten with when it is retransformed; null: none. */
    private volatile ClockReplacements switchTable;

    /**
     * A transformer for tests and for the commands: no runtime to switch or guard.
     *
     * @param listener told of each rewrite and failure in addition to {@code stats}; may be null
     * @param namedModuleGate called (only) for a named module whose class was rewritten; true lets
     *     the rewritten class through, false keeps the original
     */
    public ClockTransformer(
            ClassFilter filter, JdkScope jdk, ClockReplacements table, RewriteStats stats, RewriteStats jdkStats,
            RewriteListener listener, Predicate<Module> namedModuleGate) {
        this(new Scope(filter, jdk, table), stats, jdkStats, listener, namedModuleGate, RuntimeShadows.none(), null);
    }

    /**
     * @param shadows loaders whose classes would link to a class named like the runtime that is not
     *     fastclock's: their classes are left alone, and told of every definition refused
     * @param fastClock the boot runtime's FastClock, or null
     */
    public ClockTransformer(Scope scope, RewriteStats stats, RewriteStats jdkStats, RewriteListener listener,
            Predicate<Module> namedModuleGate, RuntimeShadows shadows, Class<?> fastClock) {
        if (scope == null || stats == null || jdkStats == null || namedModuleGate == null || shadows == null) {
            throw new NullPointerException("scope, stats, jdkStats, namedModuleGate and shadows are required");
        }
        this.scope = scope;
        this.stats = stats;
        this.jdkStats = jdkStats;
        this.listener = listener;
        this.namedModuleGate = namedModuleGate;
        this.shadows = shadows;
        this.fastClock = fastClock;
    }

    /** The scope in force. */
    public Scope scope() {
        return scope;
    }

    /** From the next class on, rewrites within {@code next} (classes rewritten before keep their bytes until retransformed). */
    public void rescope(Scope next) {
        if (next == null) {
            throw new NullPointerException("scope");
        }
        scope = next;
    }

    public void listener(RewriteListener next) {
        listener = next;
    }

    /** The rewrite for the classes {@link ConstantPoolRewriter} cannot take. */
    public void fallback(ClassRewriter rewriter) {
        fallback = rewriter;
    }

    /** Starts listing the classes this transformer sees ({@link #stopNoting}). */
    public void startNoting() {
        seen = Collections.synchronizedSet(new HashSet<>());
    }

    /** @return the classes seen since {@link #startNoting} (empty if it was not called); stops listing them */
    public Set<String> stopNoting() {
        Set<String> s = seen;
        seen = null;
        return s == null ? Collections.emptySet() : s;
    }

    /** The classes left unchanged for want of a fallback; the list is emptied. */
    public Set<String> takeAwaitingFallback() {
        synchronized (awaitingFallback) {
            Set<String> out = new HashSet<>(awaitingFallback);
            awaitingFallback.clear();
            return out;
        }
    }

    /**
     * What the runtime's FastClock becomes when it is next retransformed: its own clock calls
     * rewritten with {@code rows} (to the chosen backends), or left as they are (the system clocks)
     * with null.
     */
    public void switchTo(ClockReplacements rows) {
        switchTable = rows;
    }

    /** The names of the classes changed so far (a live, synchronized set). */
    public Set<String> changed() {
        return changed;
    }

    public RuntimeShadows shadows() {
        return shadows;
    }

    public RewriteStats stats() {
        return stats;
    }

    public RewriteStats jdkStats() {
        return jdkStats;
    }

    /** The JDK classes this transformer changes. */
    public JdkScope jdkScope() {
        return scope.jdk;
    }

    /**
     * Whether this in-scope class is one of the JDK classes known to call the clocks (jdk=time), so
     * that choosing it for retransformation needs no look at its class file.
     */
    public boolean isKnownClockCaller(String internalName) {
        return scope.jdk == JdkScope.TIME && JdkScope.TIME_CLASSES.contains(internalName);
    }

    /** A quick first look on a binary name ({@code java.time.Clock}): false means out of scope. */
    public boolean mayBeInScope(String binaryName) {
        return binaryName != null && scope.jdk.mayCover(binaryName);
    }

    /** Whether this class (internal name) is one the transformer would rewrite if it calls the clocks. */
    public boolean inScope(String className) {
        return inScope(scope, className);
    }

    private static boolean inScope(Scope s, String className) {
        if (className == null) {
            return false;
        }
        if (JdkScope.isJdkClass(className)) {
            return s.jdk.covers(className) && !s.filter.excludedByUser(className);
        }
        return s.filter.test(className);
    }

    /** Whether these bytes may name a method the table replaces (a cheap scan; false positives only cost a parse). */
    public boolean mayCallClocks(byte[] classfile) {
        return ClassBytes.mentionsAnyClass(classfile, scope.owners);
    }

    /**
     * Whether the constant pool names a method the table replaces: exact where {@link #mayCallClocks}
     * only scans. For choosing classes to retransform, where a false positive costs a redefinition.
     */
    public boolean callsClocks(byte[] classfile) {
        Scope s = scope;
        try {
            return ClassBytes.mentionsAnyClass(classfile, s.owners) && s.poolRewriter.referencesClock(classfile);
        } catch (RuntimeException e) {
            return true; // unreadable here: let the transformer decide on the class's real bytes
        }
    }

    @Override
    public byte[] transform(
            Module module, ClassLoader loader, String className, Class<?> classBeingRedefined,
            ProtectionDomain protectionDomain, byte[] classfileBuffer) {
        return transform0(module, loader, className, classBeingRedefined, classfileBuffer);
    }

    @Override
    public byte[] transform(
            ClassLoader loader, String className, Class<?> classBeingRedefined,
            ProtectionDomain protectionDomain, byte[] classfileBuffer) {
        return transform0(null, loader, className, classBeingRedefined, classfileBuffer);
    }

    /**
     * The constant-pool rewrite where it can equal ASM's, else the fallback's: a class it cannot
     * handle or that it fails on (a malformed one, say) goes to the fallback, whose failure is the one
     * reported; {@link ConstantPoolRewriter#ASM_NEEDED} where there is no fallback yet.
     */
    Rewritten rewrite(byte[] classfile) {
        return rewrite(scope, classfile);
    }

    private Rewritten rewrite(Scope s, byte[] classfile) {
        Rewritten result;
        try {
            result = s.poolRewriter.rewrite(classfile);
        } catch (RuntimeException | StackOverflowError e) {
            result = ConstantPoolRewriter.ASM_NEEDED;
        }
        if (result == ConstantPoolRewriter.ASM_NEEDED) {
            ClassRewriter f = fallback;
            return f == null ? ConstantPoolRewriter.ASM_NEEDED : f.rewrite(classfile, s.table);
        }
        return result;
    }

    private byte[] transform0(Module module, ClassLoader loader, String className, Class<?> classBeingRedefined,
            byte[] classfileBuffer) {
        if (className == null || classfileBuffer == null) {
            return null;
        }
        if (RuntimePackages.contains(className)) {
            return runtimeClass(loader, className, classBeingRedefined, classfileBuffer);
        }
        Set<String> noting = seen;
        if (noting != null) {
            noting.add(className);
        }
        Scope s = scope;
        if (s.table.isEmpty()) {
            return null;
        }
        if (shadows.shadowed(loader, className)) {
            stats.countExcluded();
            return null;
        }
        RewriteStats stats = this.stats;
        try {
            if (JdkScope.isJdkClass(className)) {
                if (!s.jdk.covers(className) || s.filter.excludedByUser(className)) {
                    stats.countExcluded();
                    return null;
                }
                stats = jdkStats;
            } else if (!s.filter.test(className)) {
                stats.countExcluded();
                return null;
            }
            stats.countScanned();
            if (!ClassBytes.mentionsAnyClass(classfileBuffer, s.owners)) {
                return null;
            }
            stats.countParsed();
            Rewritten result = rewrite(s, classfileBuffer);
            if (result == null) {
                return null;
            }
            if (result == ConstantPoolRewriter.ASM_NEEDED) {
                awaitingFallback.add(className);
                return null;
            }
            if (module != null && module.isNamed() && !namedModuleGate.test(module)) {
                stats.countSkippedNamedModule();
                return null;
            }
            stats.rewritten(className, result.callSites());
            changed.add(className);
            RewriteListener l = listener;
            if (l != null) {
                try {
                    l.rewritten(className, result.callSites());
                } catch (Throwable ignored) {
                    // a listener must not break class loading
                }
            }
            return result.bytes();
        } catch (Throwable t) {
            try {
                stats.failed(className, t);
                RewriteListener l = listener;
                if (l != null) {
                    l.failed(className, t);
                }
            } catch (Throwable ignored) {
                // nothing more can be done; the class stays unchanged
            }
            return null;
        }
    }

    /**
     * The runtime's FastClock, retransformed, becomes what {@link #switchTo} says; every other
     * retransformation of a runtime class keeps its bytes; every definition is refused: the runtime is
     * defined before this transformer exists, so a definition now is someone else's, taking a name a
     * rewritten call site would link to.
     */
    private byte[] runtimeClass(ClassLoader loader, String className, Class<?> redefined, byte[] classfile) {
        if (redefined == null) {
            shadows.refused(loader, className);
            return REFUSED;
        }
        ClockReplacements rows = switchTable;
        if (redefined != fastClock || fastClock == null || rows == null) {
            return null;
        }
        try {
            Rewritten switched = new ConstantPoolRewriter(rows).rewrite(classfile);
            return switched == null || switched == ConstantPoolRewriter.ASM_NEEDED ? null : switched.bytes();
        } catch (RuntimeException e) {
            return null; // FastClock keeps the system clocks; the agent sees the switch did not happen
        }
    }
}
