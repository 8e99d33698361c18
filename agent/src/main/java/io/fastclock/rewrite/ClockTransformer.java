package io.fastclock.rewrite;

import io.fastclock.config.JdkScope;
import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;
import java.util.function.Predicate;

/**
 * Rewrites clock calls, as {@link ClockReplacements} lists them, in the application's classes (those
 * the {@link ClassFilter} accepts) and in the JDK classes the {@link JdkScope} covers, both when they
 * load and when they are retransformed or redefined (it is registered as retransformation-capable,
 * so that classes loaded before the agent can be rewritten, and another agent's retransformation
 * keeps the rewrite). Returns null (no change) for unnamed classes, classes out of scope, classes
 * whose bytes do not name an owner in the table, and classes with nothing to rewrite. Never throws:
 * a class whose rewrite fails is left as it was, counted in its stats and reported to the listener.
 * The rewrite is {@link ConstantPoolRewriter}'s (no ASM class loaded); ASM's {@link ClockCallRewriter}
 * takes the classes it hands over or fails on, and its failure is the one reported.
 *
 * <p>Classes in named modules: a named module cannot link to {@code FastClock} (in the bootstrap
 * loader's unnamed module) unless it reads that module. When the JVM calls the module-aware
 * {@link #transform(Module, ClassLoader, String, Class, ProtectionDomain, byte[])}, a rewritten class
 * in a named module is returned only if the {@code namedModuleGate} accepts its module (the agent can
 * add the read edge there with {@code Instrumentation.redefineModule} and return true); the default
 * gate refuses, leaving such classes unchanged.
 */
public final class ClockTransformer implements ClassFileTransformer {
    private final ClassFilter filter;
    private final JdkScope jdk;
    private final ClockReplacements table;
    private final byte[][] owners;
    private final ConstantPoolRewriter poolRewriter;
    private final RewriteStats stats;
    private final RewriteStats jdkStats;
    private final RewriteListener listener;
    private final Predicate<Module> namedModuleGate;
    private final RuntimeShadows shadows;

    /**
     * @param filter which application classes to consider
     * @param jdk which of the JDK's classes to consider
     * @param table what is replaced by what
     * @param stats what happened to the application's classes (the caller keeps it); not null
     * @param jdkStats what happened to the JDK's classes; not null
     * @param listener told of each rewrite and failure in addition to {@code stats}; may be null
     * @param namedModuleGate called (only) for a named module whose class was rewritten; true lets
     *     the rewritten class through, false keeps the original
     */
    public ClockTransformer(
            ClassFilter filter, JdkScope jdk, ClockReplacements table, RewriteStats stats, RewriteStats jdkStats,
            RewriteListener listener, Predicate<Module> namedModuleGate) {
        this(filter, jdk, table, stats, jdkStats, listener, namedModuleGate, RuntimeShadows.none());
    }

    /**
     * @param shadows loaders whose classes would link to a class named like the runtime that is not
     *     fastclock's: their classes are left alone
     */
    public ClockTransformer(
            ClassFilter filter, JdkScope jdk, ClockReplacements table, RewriteStats stats, RewriteStats jdkStats,
            RewriteListener listener, Predicate<Module> namedModuleGate, RuntimeShadows shadows) {
        if (filter == null || jdk == null || table == null || stats == null || jdkStats == null
                || namedModuleGate == null || shadows == null) {
            throw new NullPointerException("filter, jdk, table, stats, jdkStats, namedModuleGate and shadows are required");
        }
        this.filter = filter;
        this.jdk = jdk;
        this.table = table;
        this.owners = ClassBytes.asciiNames(table.owners());
        this.poolRewriter = new ConstantPoolRewriter(table);
        this.stats = stats;
        this.jdkStats = jdkStats;
        this.listener = listener;
        this.namedModuleGate = namedModuleGate;
        this.shadows = shadows;
    }

    /** The JDK classes this transformer changes. */
    public JdkScope jdkScope() {
        return jdk;
    }

    /**
     * Whether this in-scope class is one of the JDK classes known to call the clocks (jdk=time), so
     * that choosing it for retransformation needs no look at its class file.
     */
    public boolean isKnownClockCaller(String internalName) {
        return jdk == JdkScope.TIME && JdkScope.TIME_CLASSES.contains(internalName);
    }

    /** A quick first look on a binary name ({@code java.time.Clock}): false means out of scope. */
    public boolean mayBeInScope(String binaryName) {
        return binaryName != null && jdk.mayCover(binaryName);
    }

    /** Whether this class (internal name) is one the transformer would rewrite if it calls the clocks. */
    public boolean inScope(String className) {
        if (className == null) {
            return false;
        }
        if (JdkScope.isJdkClass(className)) {
            return jdk.covers(className) && !filter.excludedByUser(className);
        }
        return filter.test(className);
    }

    /** Whether these bytes may name a method the table replaces (a cheap scan; false positives only cost a parse). */
    public boolean mayCallClocks(byte[] classfile) {
        return ClassBytes.mentionsAnyClass(classfile, owners);
    }

    /**
     * Whether the constant pool names a method the table replaces: exact where {@link #mayCallClocks}
     * only scans. For choosing classes to retransform, where a false positive costs a redefinition.
     */
    public boolean callsClocks(byte[] classfile) {
        try {
            return mayCallClocks(classfile) && poolRewriter.referencesClock(classfile);
        } catch (RuntimeException e) {
            return true; // unreadable here: let the transformer decide on the class's real bytes
        }
    }

    @Override
    public byte[] transform(
            Module module, ClassLoader loader, String className, Class<?> classBeingRedefined,
            ProtectionDomain protectionDomain, byte[] classfileBuffer) {
        return transform0(module, loader, className, classfileBuffer);
    }

    @Override
    public byte[] transform(
            ClassLoader loader, String className, Class<?> classBeingRedefined,
            ProtectionDomain protectionDomain, byte[] classfileBuffer) {
        return transform0(null, loader, className, classfileBuffer);
    }

    /**
     * The constant-pool rewrite where it can equal ASM's, else ASM's: a class it cannot handle or
     * that it fails on (a malformed one, say) goes to ASM, whose failure is the one reported.
     */
    ClockCallRewriter.Result rewrite(byte[] classfile) {
        ClockCallRewriter.Result result;
        try {
            result = poolRewriter.rewrite(classfile);
        } catch (RuntimeException | StackOverflowError e) {
            result = ConstantPoolRewriter.ASM_NEEDED;
        }
        if (result == ConstantPoolRewriter.ASM_NEEDED) {
            return ClockCallRewriter.rewriteCounting(classfile, table);
        }
        return result;
    }

    private byte[] transform0(Module module, ClassLoader loader, String className, byte[] classfileBuffer) {
        if (className == null || classfileBuffer == null || table.isEmpty()) {
            return null;
        }
        if (shadows.shadowed(loader, className)) {
            stats.countExcluded();
            return null;
        }
        RewriteStats stats = this.stats;
        try {
            if (JdkScope.isJdkClass(className)) {
                if (!jdk.covers(className) || filter.excludedByUser(className)) {
                    stats.countExcluded();
                    return null;
                }
                stats = jdkStats;
            } else if (!filter.test(className)) {
                stats.countExcluded();
                return null;
            }
            stats.countScanned();
            if (!mayCallClocks(classfileBuffer)) {
                return null;
            }
            stats.countParsed();
            ClockCallRewriter.Result result = rewrite(classfileBuffer);
            if (result == null) {
                return null;
            }
            if (module != null && module.isNamed() && !namedModuleGate.test(module)) {
                stats.countSkippedNamedModule();
                return null;
            }
            stats.rewritten(className, result.callSites());
            if (listener != null) {
                try {
                    listener.rewritten(className, result.callSites());
                } catch (Throwable ignored) {
                    // a listener must not break class loading
                }
            }
            return result.bytes();
        } catch (Throwable t) {
            try {
                stats.failed(className, t);
                if (listener != null) {
                    listener.failed(className, t);
                }
            } catch (Throwable ignored) {
                // nothing more can be done; the class stays unchanged
            }
            return null;
        }
    }
}
