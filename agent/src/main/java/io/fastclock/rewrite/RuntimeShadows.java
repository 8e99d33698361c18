package io.fastclock.rewrite;

import java.util.Map;
import java.util.WeakHashMap;
import java.util.function.Consumer;

/**
 * Class loaders that hold a class named like the boot runtime's (io.fastclock.runtime) which is not
 * the boot runtime: a rewritten call site resolves {@code io/fastclock/runtime/FastClock} by name
 * through its class's loader, so in such a loader (or a loader below it) it would link to that class
 * instead of fastclock's. Their classes are not rewritten; each is reported once.
 *
 * <p>Filled from the classes loaded when the agent activates, from the loaders that answer the
 * runtime's names with another class, and, while running, from every class of that package that a
 * loader other than the boot loader defines (the transformer sees it first).
 */
public final class RuntimeShadows {
    /** The boot runtime's package, internal form. */
    public static final String RUNTIME_PACKAGE = "io/fastclock/runtime/";

    private final Map<ClassLoader, Boolean> loaders = new WeakHashMap<>();
    private final Consumer<String> report;
    /** Read without the lock on every transform: false while no loader was found (the usual case). */
    private volatile boolean any;

    /** @param report told once per loader, with the line to print */
    public RuntimeShadows(Consumer<String> report) {
        this.report = report;
    }

    /** No loader is ever taken for a shadow (the transformer's unit tests). */
    public static RuntimeShadows none() {
        return new RuntimeShadows(line -> { });
    }

    /** Notes the loader of every class of the runtime's package that the boot loader did not define. */
    public void noteLoaded(Class<?>[] loaded) {
        for (Class<?> c : loaded) {
            ClassLoader loader = c.getClassLoader();
            if (loader != null && c.getName().startsWith("io.fastclock.runtime.")) {
                note(loader, c.getName());
            }
        }
    }

    /**
     * Asks {@code loader} for each runtime class by name ({@code Class.forName}, not initialised) and
     * notes it where the answer is not the boot runtime's. The answer is then recorded for that loader,
     * so it cannot define a class of that name later.
     *
     * @param runtime the boot runtime's classes
     */
    public void pin(ClassLoader loader, Class<?>... runtime) {
        for (Class<?> c : runtime) {
            Class<?> answer;
            try {
                answer = Class.forName(c.getName(), false, loader);
            } catch (ClassNotFoundException | LinkageError | RuntimeException e) {
                continue; // a loader that cannot see the runtime: its classes fail to link, as before
            }
            if (answer != c) {
                note(loader, c.getName());
            }
        }
    }

    /**
     * For the transformer, on every class it is given: true when the class must be left alone, because
     * it is itself of the runtime's package in another loader (its loader is noted) or its loader, or one
     * above it, holds such a class.
     */
    public boolean shadowed(ClassLoader loader, String internalName) {
        if (loader == null) {
            return false;
        }
        if (internalName != null && internalName.startsWith(RUNTIME_PACKAGE)) {
            note(loader, internalName.replace('/', '.'));
            return true;
        }
        if (!any) {
            return false;
        }
        synchronized (this) {
            for (ClassLoader l = loader; l != null; l = parentOf(l)) {
                if (loaders.containsKey(l)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static ClassLoader parentOf(ClassLoader loader) {
        try {
            return loader.getParent();
        } catch (SecurityException e) {
            return null;
        }
    }

    private void note(ClassLoader loader, String className) {
        synchronized (this) {
            if (loaders.put(loader, Boolean.TRUE) != null) {
                return;
            }
            any = true;
        }
        try {
            report.accept("class loader " + describe(loader) + " holds a class named like fastclock's runtime ("
                    + className + "); its classes, and those of the loaders below it, keep the system clocks");
        } catch (RuntimeException | LinkageError e) {
            // said or not, the loader's classes are left alone
        }
    }

    private static String describe(ClassLoader loader) {
        String name = loader.getName();
        return loader.getClass().getName() + (name == null ? "" : " '" + name + "'") + "@"
                + Integer.toHexString(System.identityHashCode(loader));
    }
}
