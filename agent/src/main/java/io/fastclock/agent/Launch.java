package io.fastclock.agent;

import io.fastclock.commands.Commands;
import io.fastclock.config.OneLine;
import io.fastclock.nativelib.AgentResources;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.util.function.Function;

/**
 * The agent module's one way in: its service provider, which io.fastclock.entry.AgentEntry finds
 * through ServiceLoader (no package of this module is exported for it). Each copy of the module
 * takes one call, the entry's, made right after the module is defined and before any object of it
 * exists that application code could follow back here; every later call is refused, whoever makes
 * it. The agent starts only with the JVM's own Instrumentation.
 *
 * <p>Its one argument is a {@link Handoff}'s array, typed here before anything else reads it.
 */
public final class Launch implements Function<Object[], Object> {
    private static final ClassFileTransformer NEVER_ADDED = new ClassFileTransformer() {};
    /** Set by the first call: the entry's. */
    private static boolean spent;

    @Override
    public Object apply(Object[] args) {
        if (!firstCall()) {
            System.err.println(OneLine.PREFIX + "refused: this copy of fastclock has been started already");
            return null;
        }
        Handoff handoff = Handoff.read(args);
        if (handoff == null) {
            System.err.println(OneLine.PREFIX + "refused: not a hand-off from fastclock's entry");
            return null;
        }
        AgentResources.from(handoff.jar);
        if (handoff.entryPoint == EntryPoint.MAIN) {
            // The command line's runtime comes from this module's parent loader (io.fastclock.entry.PrivateModule).
            // An agent's module has none: the commands run only in a module defined for the command line,
            // never in an agent's, which has native access and the host's settings to act on.
            ClassLoader runtime = Launch.class.getClassLoader().getParent();
            if (runtime == null) {
                System.err.println(OneLine.PREFIX + "main refused: this copy of fastclock is an agent, not the command line");
                return null;
            }
            // Its own copy, or, in a JVM where fastclock runs too (JAVA_TOOL_OPTIONS), the boot loader's.
            try {
                Launch.class.getModule().addReads(Class.forName(RuntimeModule.FAST_CLOCK, false, runtime).getModule());
            } catch (ClassNotFoundException | LinkageError e) {
                System.err.println(OneLine.escape(OneLine.PREFIX + "cannot start: fastclock's runtime cannot be loaded: " + e));
                System.exit(1);
            }
            Commands.main(handoff.commandLine);
            return null;
        }
        if (!isTheJvms(handoff.inst)) {
            System.err.println(OneLine.PREFIX + handoff.entryPoint.methodName() + " refused: not the JVM's Instrumentation");
            return null;
        }
        FastclockAgent.start(handoff);
        return null;
    }

    private static synchronized boolean firstCall() {
        boolean first = !spent;
        spent = true;
        return first;
    }

    /** The JDK's own class, and an instance the JVM made ({@link #madeByItsConstructor}). */
    static boolean isTheJvms(Instrumentation inst) {
        if (inst == null) {
            return false;
        }
        Class<?> c = inst.getClass();
        Module m = c.getModule();
        return c.getName().equals("sun.instrument.InstrumentationImpl") && m.isNamed()
                && "java.instrument".equals(m.getName()) && m.getLayer() == ModuleLayer.boot()
                && madeByItsConstructor(inst);
    }

    /**
     * This provider is reachable from class-path code (through the loader of the MBean), which can
     * allocate an InstrumentationImpl with sun.misc.Unsafe: one no constructor ran for, with no
     * native agent behind it. The JVM's instances have the transformer manager their constructor
     * makes; removing a transformer they never had reads it and returns false, Java only (asking
     * anything native of an allocated one would crash the JVM), where an allocated one throws.
     * Making one pass takes writing its fields with Unsafe, which no agent can keep out (ISOLATION.md).
     */
    private static boolean madeByItsConstructor(Instrumentation inst) {
        try {
            inst.removeTransformer(NEVER_ADDED);
            return true;
        } catch (RuntimeException e) {
            return false;
        }
    }
}
