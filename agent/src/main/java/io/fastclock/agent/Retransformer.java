package io.fastclock.agent;

import io.fastclock.rewrite.ClockTransformer;

import java.io.IOException;
import java.io.InputStream;
import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;

/**
 * Rewrites classes that were loaded before the transformer was installed (the JDK classes behind
 * java.time, another agent's classes, an early application class, or everything when attached to a
 * running JVM), by retransformation: the transformer sees each class's bytes again and its methods
 * are replaced at their next call.
 *
 * <p>Only classes that can need it are retransformed: in the transformer's scope, modifiable, and
 * whose class file (read as a resource, which is cheap) names an owner of a replaced method. A
 * retransformation is a redefinition for the JVM (a safepoint, dependent code deoptimised), so
 * retransforming every loaded class would cost far more than reading the candidates' bytes. A class
 * whose bytes cannot be read (generated at run time) is retransformed only if {@code
 * unreadableToo} says so.
 */
final class Retransformer {
    /** Classes per retransformClasses call: one VM operation each. */
    static final int BATCH = 100;

    /** What a pass did. */
    static final class Outcome {
        int candidates;
        int retransformed;
        int failed;
        int unreadable;
        String firstFailure;
        /** Choosing the candidates (reading their class files). */
        long scanNanos;
        long elapsedNanos;
    }

    private final Instrumentation inst;
    private final ClockTransformer transformer;

    Retransformer(Instrumentation inst, ClockTransformer transformer) {
        this.inst = inst;
        this.transformer = transformer;
    }

    /**
     * Retransforms the loaded classes that may call the clocks.
     *
     * @param loaded the classes to consider (e.g. {@code inst.getAllLoadedClasses()})
     * @param unreadableToo whether a class whose class file cannot be read as a resource is
     *     retransformed anyway (the transformer then decides from its real bytes)
     */
    Outcome run(Class<?>[] loaded, boolean unreadableToo) {
        return run(loaded, unreadableToo, null);
    }

    /**
     * As {@link #run(Class[], boolean)}, but classes whose class file cannot be read are only
     * collected in {@code unreadable} (when not null), for a later, gentler pass
     * ({@link #retransform(List, int)}).
     */
    Outcome run(Class<?>[] loaded, boolean unreadableToo, List<Class<?>> unreadable) {
        return run(loaded, unreadableToo, unreadable, Collections.emptySet(), Collections.emptySet());
    }

    /**
     * As {@link #run(Class[], boolean, List)}, knowing what the transformer did since premain.
     *
     * @param seen internal names of classes the transformer saw load: it has dealt with them, so their
     *     class files are not read again
     * @param again internal names of classes to retransform whatever their scope (those the
     *     transformer changed under a scope that has since narrowed, or left for want of ASM)
     */
    Outcome run(Class<?>[] loaded, boolean unreadableToo, List<Class<?>> unreadable, Set<String> seen, Set<String> again) {
        long started = System.nanoTime();
        Outcome outcome = new Outcome();
        List<Class<?>> candidates = new ArrayList<>();
        for (Class<?> c : loaded) {
            if (c.isArray() || c.isPrimitive()) {
                continue;
            }
            String name = c.getName();
            if (!again.isEmpty() || !seen.isEmpty()) {
                String internal = name.replace('.', '/');
                if (again.contains(internal)) {
                    if (inst.isModifiableClass(c)) {
                        candidates.add(c);
                    }
                    continue;
                }
                if (seen.contains(internal)) {
                    continue;
                }
            }
            if (!transformer.mayBeInScope(name) || c.isArray() || c.isPrimitive()) {
                continue;
            }
            String internalName = name.replace('.', '/');
            if (!transformer.inScope(internalName) || !inst.isModifiableClass(c)) {
                continue;
            }
            if (transformer.isKnownClockCaller(internalName)) {
                candidates.add(c); // no need to read the JDK's image to know
                continue;
            }
            byte[] bytes = classFile(c, internalName);
            if (bytes == null) {
                outcome.unreadable++;
                if (unreadable != null) {
                    unreadable.add(c);
                    continue;
                }
                if (!unreadableToo) {
                    continue;
                }
            } else if (!transformer.callsClocks(bytes)) {
                continue;
            }
            candidates.add(c);
        }
        outcome.candidates = candidates.size();
        outcome.scanNanos = System.nanoTime() - started;
        retransformInBatches(candidates, BATCH, outcome);
        outcome.elapsedNanos = System.nanoTime() - started;
        return outcome;
    }

    /** Retransforms {@code classes} in batches of {@code batchSize} (one VM operation, one safepoint each). */
    Outcome retransform(List<Class<?>> classes, int batchSize) {
        long started = System.nanoTime();
        Outcome outcome = new Outcome();
        outcome.candidates = classes.size();
        retransformInBatches(classes, batchSize, outcome);
        outcome.elapsedNanos = System.nanoTime() - started;
        return outcome;
    }

    private void retransformInBatches(List<Class<?>> candidates, int batchSize, Outcome outcome) {
        for (int from = 0; from < candidates.size(); from += batchSize) {
            List<Class<?>> batch = candidates.subList(from, Math.min(candidates.size(), from + batchSize));
            try {
                inst.retransformClasses(batch.toArray(new Class<?>[0]));
                outcome.retransformed += batch.size();
            } catch (Throwable batchFailure) {
                // The JVM retransforms a batch all or nothing: retry one by one to keep the rest.
                for (Class<?> c : batch) {
                    try {
                        inst.retransformClasses(c);
                        outcome.retransformed++;
                    } catch (Throwable t) {
                        outcome.failed++;
                        if (outcome.firstFailure == null) {
                            outcome.firstFailure = c.getName() + " (" + t + ")";
                        }
                    }
                }
            }
        }
    }

    /** The class file as its loader or module has it, or null. */
    private static byte[] classFile(Class<?> c, String internalName) {
        String resource = internalName + ".class";
        try {
            Module module = c.getModule();
            InputStream in;
            if (module.isNamed()) {
                in = module.getResourceAsStream(resource); // .class resources are never encapsulated
            } else {
                ClassLoader loader = c.getClassLoader();
                in = loader == null ? null : loader.getResourceAsStream(resource);
            }
            if (in == null) {
                return null;
            }
            try (InputStream stream = in) {
                return stream.readAllBytes();
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
