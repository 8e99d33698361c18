package io.fastclock.entry;

import java.lang.instrument.Instrumentation;
import java.util.function.Consumer;

/**
 * Who called the entry points. premain and agentmain are called by the JVM's java.instrument
 * (sun.instrument.InstrumentationImpl, through reflection, which StackWalker hides) with the JVM's
 * own Instrumentation; main is called by the launcher (no Java caller at all, or java.base's
 * launcher helper). Anything else is application code, and is refused.
 */
final class CallerCheck {
    private static final String JVM_INSTRUMENTATION = "sun.instrument.InstrumentationImpl";

    private CallerCheck() {}

    /**
     * @param caller the class that called premain/agentmain
     * @return null when the JVM called premain/agentmain with its own Instrumentation, else why not
     */
    static String refusalForAgent(Instrumentation inst, Class<?> caller) {
        if (inst == null) {
            return "no Instrumentation";
        }
        if (!isJdkClass(inst.getClass(), JVM_INSTRUMENTATION, "java.instrument")) {
            return "not the JVM's Instrumentation (" + inst.getClass().getName() + ")";
        }
        // An InstrumentationImpl that the JVM did not make (sun.misc.Unsafe.allocateInstance gives the
        // class path one, with no native agent behind it) comes only with another caller.
        if (caller == null || !isJdkClass(caller, JVM_INSTRUMENTATION, "java.instrument")) {
            return "called by " + (caller == null ? "nothing" : caller.getName()) + ", not by the JVM";
        }
        return null;
    }

    /** @return null when the launcher called main, else why not */
    static String refusalForMain() {
        Class<?> caller = callerOfEntry();
        if (caller == null) {
            return null;
        }
        Module module = caller.getModule();
        boolean launcher = module.isNamed() && module.getLayer() == ModuleLayer.boot()
                && caller.getClassLoader() == null && module.getName().equals("java.base");
        return launcher ? null : "called by " + caller.getName() + ", not by the java launcher";
    }

    private static boolean isJdkClass(Class<?> c, String name, String moduleName) {
        Module m = c.getModule();
        return c.getName().equals(name) && m.isNamed() && moduleName.equals(m.getName())
                && m.getLayer() == ModuleLayer.boot();
    }

    /** The first frame below this package's frames (reflection frames hidden), or null if none. */
    private static Class<?> callerOfEntry() {
        FirstOutside first = new FirstOutside();
        StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE).forEach(first);
        return first.found;
    }

    /** A class, not a lambda: no invokedynamic bootstrap on the JVM's start-up path. */
    private static final class FirstOutside implements Consumer<StackWalker.StackFrame> {
        Class<?> found;

        @Override
        public void accept(StackWalker.StackFrame frame) {
            Class<?> c = frame.getDeclaringClass();
            if (found == null && c != AgentEntry.class && c != CallerCheck.class && c != FirstOutside.class) {
                found = c;
            }
        }
    }
}
