package io.fastclock.it.apps;

import java.lang.invoke.MethodHandles;
import java.security.Permission;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * A hostile application that installs a SecurityManager of its own at main's first instruction (JDK 23
 * and older), after premain looked for one. The JDK asks it on every thread, fastclock's included; each
 * check on a thread of fastclock's walks the stack and keeps every class whose module java.base exports
 * a JDK-internal package to, then tries a lookup into it (its package open to this code: the unnamed
 * module of a loader of fastclock's), which would define a class of its own there, holding that export.
 * Stays up {@code args[0]} ms, for fastclock's deferred work to run.
 */
public final class SecurityManagerAtMainApp {
    static final String[] INTERNAL = {"jdk.internal.vm", "jdk.internal.misc", "jdk.internal.module"};
    static final Set<String> EXPORTED_SEEN = Collections.synchronizedSet(new LinkedHashSet<>());
    static final Set<String> LOOKUPS = Collections.synchronizedSet(new LinkedHashSet<>());
    static final Set<String> THREADS = Collections.synchronizedSet(new LinkedHashSet<>());

    public static void main(String[] args) throws Exception {
        Hook hook = new Hook();
        // The hook's own code resolved before it is in place, so that its checks do not recurse.
        hook.look("warm-up");
        installSecurityManager(hook);
        Thread.sleep(Long.parseLong(args[0]));
        System.setSecurityManager(null);
        System.out.println("fastclockThreadsChecked=" + (THREADS.isEmpty() ? "none" : THREADS));
        System.out.println("exportedSeen=" + (EXPORTED_SEEN.isEmpty() ? "none" : EXPORTED_SEEN));
        System.out.println("lookups=" + (LOOKUPS.isEmpty() ? "none" : LOOKUPS));
    }

    @SuppressWarnings({"deprecation", "removal"})
    private static void installSecurityManager(SecurityManager sm) {
        System.setSecurityManager(sm);
    }

    /** Grants everything; each check made on one of fastclock's threads is a look at its stack. */
    @SuppressWarnings({"deprecation", "removal"})
    static final class Hook extends SecurityManager {
        private final ThreadLocal<Boolean> busy = new ThreadLocal<>();
        /** Looks on every thread (premain runs on main), not only fastclock's. */
        private final boolean everyThread;

        Hook() {
            this(false);
        }

        Hook(boolean everyThread) {
            this.everyThread = everyThread;
        }

        @Override
        public void checkPermission(Permission perm) {
            look(Thread.currentThread().getName());
        }

        @Override
        public void checkPermission(Permission perm, Object context) {
        }

        @Override
        public void checkPackageAccess(String pkg) {
            look(Thread.currentThread().getName());
        }

        void look(String thread) {
            if (!everyThread && !thread.startsWith("fastclock") && !thread.equals("warm-up") || busy.get() != null) {
                return;
            }
            busy.set(Boolean.TRUE);
            try {
                if (!thread.equals("warm-up")) {
                    THREADS.add(thread);
                }
                for (Class<?> c : StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE).walk(new Frames())) {
                    if (c.getModule().getLayer() == ModuleLayer.boot() || c.getModule() == SecurityManagerAtMainApp.class.getModule()) {
                        continue; // the JDK's own modules, and this code's
                    }
                    for (String pkg : INTERNAL) {
                        if (Object.class.getModule().isExported(pkg, c.getModule())) {
                            EXPORTED_SEEN.add(c.getName() + " (" + pkg + ")");
                            try {
                                MethodHandles.Lookup in = MethodHandles.privateLookupIn(c, MethodHandles.lookup());
                                LOOKUPS.add(in + " (" + pkg + ")");
                            } catch (IllegalAccessException | RuntimeException closed) {
                                // a package not open to this code: nothing to define there
                            }
                        }
                    }
                }
            } finally {
                busy.remove();
            }
        }
    }

    static final class Frames implements Function<Stream<StackWalker.StackFrame>, List<Class<?>>> {
        @Override
        public List<Class<?>> apply(Stream<StackWalker.StackFrame> frames) {
            List<Class<?>> out = new ArrayList<>();
            for (Iterator<StackWalker.StackFrame> it = frames.iterator(); it.hasNext(); ) {
                out.add(it.next().getDeclaringClass());
            }
            return out;
        }
    }
}
