package io.fastclock.rewrite;

import java.util.Map;
import java.util.WeakHashMap;
import java.util.function.Consumer;

/**
 * Class loaders that hold a class named like the boot runtime's ({@link RuntimePackages}) which is not
 * the boot runtime: a rewritten call site resolves {@code io/fastclock/runtime/FastClock} by name
 * through its class's loader, so in such a loader (or a loader below it) it would link to that class
 * instead of fastclock's. Their classes are not rewritten; each is reported once.
 *
 * <p>Filled from the classes loaded when the agent activates after the application started (an
 * attach), from the loaders that answer the runtime's names with another class, and from every
 * definition of such a name that the transformer refused.
 */
public final class RuntimeShadows {
    private final Map<ClassLoader, Boolean> loaders = new WeakHashMap<>();
    private final Map<ClassLoader, Boolean> refusedIn = new WeakHashMap<>();
    private boolean bootRefused;
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
            if (loader != null && RuntimePackages.contains(c.getName().replace('.', '/'))) {
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
     * The transformer refused a definition of {@code internalName}, a runtime class's name, by
     * {@code loader} (null: the boot loader): said once per loader. The loader holds no such class
     * (the definition failed), so its classes are still rewritten.
     */
    public void refused(ClassLoader loader, String internalName) {
        synchronized (this) {
            if (loader == null ? bootRefused : refusedIn.put(loader, Boolean.TRUE) != null) {
                return;
            }
            if (loader == null) {
                bootRefused = true;
            }
        }
        try {
            report.accept("refused a class named " + internalName.replace('/', '.') + " that "
                    + (loader == null ? "the boot loader" : "class loader " + describe(loader))
                    + " was defining: the names of fastclock's runtime are its own (said once per loader)");
        } catch (RuntimeException | LinkageError e) {
            // said or not, the definition failed
        }
    }

    /**
     * For the transformer, on every class it is given: true when the class must be left alone, because
     * its loader, or one above it, holds a class named like the runtime's.
     */
    public boolean shadowed(ClassLoader loader, String internalName) {
        if (loader == null) {
            return false;
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
