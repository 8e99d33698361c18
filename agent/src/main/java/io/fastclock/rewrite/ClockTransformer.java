package io.fastclock.rewrite;

import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;
import java.util.function.Predicate;

/**
 * Rewrites clock calls in classes as they are loaded. Returns null (no change) for unnamed classes,
 * redefinitions/retransformations, excluded classes, classes whose bytes do not mention
 * {@code java/lang/System}, and classes with nothing to rewrite. Never throws: a class whose rewrite
 * fails is left as it was, counted in {@link #stats()} and reported to the listener.
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
    private final RewriteStats stats;
    private final RewriteListener listener;
    private final Predicate<Module> namedModuleGate;

    public ClockTransformer(ClassFilter filter) {
        this(filter, new RewriteStats(), null, m -> false);
    }

    /**
     * @param filter which classes to consider
     * @param stats counters (shared if the caller wants them); not null
     * @param listener told of each rewrite and failure in addition to {@code stats}; may be null
     * @param namedModuleGate called (only) for a named module whose class was rewritten; true lets
     *     the rewritten class through, false keeps the original
     */
    public ClockTransformer(
            ClassFilter filter, RewriteStats stats, RewriteListener listener,
            Predicate<Module> namedModuleGate) {
        if (filter == null || stats == null || namedModuleGate == null) {
            throw new NullPointerException("filter, stats and namedModuleGate are required");
        }
        this.filter = filter;
        this.stats = stats;
        this.listener = listener;
        this.namedModuleGate = namedModuleGate;
    }

    public RewriteStats stats() {
        return stats;
    }

    @Override
    public byte[] transform(
            Module module, ClassLoader loader, String className, Class<?> classBeingRedefined,
            ProtectionDomain protectionDomain, byte[] classfileBuffer) {
        return transform0(module, className, classBeingRedefined, classfileBuffer);
    }

    @Override
    public byte[] transform(
            ClassLoader loader, String className, Class<?> classBeingRedefined,
            ProtectionDomain protectionDomain, byte[] classfileBuffer) {
        return transform0(null, className, classBeingRedefined, classfileBuffer);
    }

    private byte[] transform0(
            Module module, String className, Class<?> classBeingRedefined, byte[] classfileBuffer) {
        if (className == null || classBeingRedefined != null || classfileBuffer == null) {
            return null;
        }
        try {
            if (!filter.test(className)) {
                stats.countExcluded();
                return null;
            }
            stats.countScanned();
            if (!ClassBytes.mentionsSystemClass(classfileBuffer)) {
                return null;
            }
            stats.countParsed();
            ClockCallRewriter.Result result = ClockCallRewriter.rewriteCounting(classfileBuffer);
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
