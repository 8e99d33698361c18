package io.fastclock.agent;

import io.fastclock.config.OneLine;
import java.lang.instrument.Instrumentation;
import java.lang.reflect.Method;
import java.util.Collections;

/**
 * A copy of this agent started earlier in the JVM (another -javaagent of the jar, an earlier attach):
 * found for {@code detach}, and so that a second copy does nothing.
 *
 * <p>Known by a mark no application code can make, not by a name: a module named like this one holding
 * a class named like {@link Launch} is something any application can build in a layer of its own. Every
 * copy that starts has java.base export jdk.internal.vm to its module ({@link AgentState#open}), which
 * takes the JVM's Instrumentation (Instrumentation.redefineModule) or a command-line flag naming a
 * boot-layer module; nothing the application can load or define grants it.
 */
final class EarlierCopy {
    static final String MARK_PACKAGE = "jdk.internal.vm";

    private EarlierCopy() {}

    /** The module of a marked copy other than {@code mine}, or null. */
    static Module find(Class<?>[] loaded, Module mine) {
        Module javaBase = Object.class.getModule();
        for (Class<?> c : loaded) {
            Module m = c.getModule();
            if (m != mine && m.isNamed() && c.getName().equals(Launch.class.getName())
                    && m.getName().equals(mine.getName()) && javaBase.isExported(MARK_PACKAGE, m)) {
                return m;
            }
        }
        return null;
    }

    /**
     * Has the earlier copy restore what it changed. Its package is opened to this copy's module alone
     * (the Instrumentation can, the application cannot), then its own detach runs: no entry point of it
     * that application code could call is used.
     */
    static void detach(Module earlier, Instrumentation inst) {
        String pkg = Launch.class.getPackageName();
        try {
            inst.redefineModule(earlier, Collections.emptySet(), Collections.emptyMap(),
                    Collections.singletonMap(pkg, Collections.singleton(EarlierCopy.class.getModule())),
                    Collections.emptySet(), Collections.emptyMap());
            Class<?> agent = Class.forName(earlier, FastclockAgent.class.getName());
            if (agent == null) {
                throw new ClassNotFoundException(FastclockAgent.class.getName());
            }
            Method detach = agent.getDeclaredMethod("detachThisCopy");
            detach.setAccessible(true);
            detach.invoke(null);
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            System.err.println(OneLine.escape(OneLine.PREFIX + "the copy of fastclock loaded earlier cannot be reached: " + e));
        }
    }
}
