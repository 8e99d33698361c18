package io.fastclock.agent;

import io.fastclock.boot.EarlyStart;
import java.lang.instrument.Instrumentation;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * premain's boot runtime: defined ({@link BootRuntime}) and its transformer installed
 * ({@link EarlyStart}) before the application's first class loads, so that every class loaded from
 * then on calls FastClock, which serves the JDK's clocks until the verdict switches it.
 *
 * <p>Only ever defined in a class loader of premain's own (io.fastclock.entry.OwnLoader, made by
 * io.fastclock.entry.RuntimeSetup), the one module java.base exports jdk.internal.misc and jdk.internal.module (JDK 12+: jdk.internal.access too) to for this; nothing else of the
 * agent is there, and nothing of it is kept. The work runs in this class's initialiser, which premain
 * triggers with Class.forName: calling a method of a class of another loader would take reflection,
 * whose first use spins method handles on JDK 18+ (milliseconds in premain). The loader hands over
 * the arguments once; a failure reaches premain as an ExceptionInInitializerError.
 */
final class EarlyRuntime {
    /** The arguments' layout, which RuntimeSetup writes (any IT that sets the runtime up fails where they differ). */
    static final int INSTRUMENTATION = 0;
    static final int CLASS_FILES = 1;
    static final int SETTINGS = 2;
    static final int ARGUMENTS = 3;

    static {
        ClassLoader loader = EarlyRuntime.class.getClassLoader();
        if (loader instanceof Supplier) {
            Object[] args = (Object[]) ((Supplier<?>) loader).get();
            if (args == null || args.length != ARGUMENTS) {
                throw new IllegalStateException("no arguments from premain");
            }
            @SuppressWarnings("unchecked")
            Function<String, byte[]> classFiles = (Function<String, byte[]>) args[CLASS_FILES];
            Module runtime = BootRuntime.define(classFiles, EarlyRuntime.class.getModule());
            EarlyStart.start((Instrumentation) args[INSTRUMENTATION], runtime, (String[]) args[SETTINGS]);
        }
    }

    private EarlyRuntime() {}
}
