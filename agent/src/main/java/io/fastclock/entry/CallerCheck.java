package io.fastclock.entry;

import java.util.function.Consumer;

/**
 * Who called main: the launcher (no Java caller at all, or java.base's launcher helper). Anything
 * else is application code, and is refused. premain's and agentmain's callers are checked by
 * AgentEntry itself, before any helper is defined.
 */
final class CallerCheck {
    private CallerCheck() {}

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
