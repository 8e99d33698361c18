package io.fastclock.it.apps;

import java.io.File;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * A hostile application whose system class loader (run before premain) installs a Properties of its
 * own. Read on a thread that holds System's class lock (which fastclock holds while its set-up loaders'
 * classes, exported JDK-internal packages, exist), it installs a SecurityManager from that very thread:
 * the lock is re-entrant, so only the absence of application code under it keeps one out. The
 * SecurityManager is SecurityManagerAtMainApp's, looking on every thread. Also counts the reads made
 * with a class of fastclock's on the stack, so that a run where the hook never ran beside fastclock shows.
 * Stays up {@code args[0]} ms.
 */
public final class LockHolderHookApp {
    static final Set<String> UNDER_LOCK = Collections.synchronizedSet(new LinkedHashSet<>());
    static volatile int readsBesideFastclock;
    static final SecurityManagerAtMainApp.Hook HOOK = new SecurityManagerAtMainApp.Hook(true);

    /** -Djava.system.class.loader: the hook is in place before any agent runs. */
    public static final class Loader extends URLClassLoader {
        static {
            ClassLoader.registerAsParallelCapable();
        }

        public Loader(ClassLoader parent) {
            super(new URL[0], parent);
            HOOK.look("warm-up");
            System.setProperties(new HookedProperties(System.getProperties(), new Hooked()));
        }

        /** What java.instrument calls to add -javaagent's jar where a custom system class loader is in use. */
        void appendToClassPathForInstrumentation(String path) throws MalformedURLException {
            addURL(new File(path).toURI().toURL());
        }
    }

    /** On every read of the system properties: counts those beside fastclock, and installs the SecurityManager under System's lock. */
    static final class Hooked implements Runnable {
        private final ThreadLocal<Boolean> busy = new ThreadLocal<>();

        @Override
        public void run() {
            if (busy.get() != null) {
                return;
            }
            busy.set(Boolean.TRUE);
            try {
                if (StackWalker.getInstance().walk(s -> s.anyMatch(f -> f.getClassName().startsWith("io.fastclock.")))) {
                    readsBesideFastclock++;
                }
                if (Thread.holdsLock(System.class)) {
                    UNDER_LOCK.add(Thread.currentThread().getName());
                    install(HOOK);
                }
            } finally {
                busy.remove();
            }
        }
    }

    @SuppressWarnings({"deprecation", "removal"})
    static void install(SecurityManager sm) {
        System.setSecurityManager(sm);
    }

    public static void main(String[] args) throws Exception {
        Thread.sleep(Long.parseLong(args[0]));
        install(null);
        System.out.println("readsBesideFastclock=" + readsBesideFastclock);
        System.out.println("readUnderSystemLock=" + (UNDER_LOCK.isEmpty() ? "none" : UNDER_LOCK));
        System.out.println("lookups=" + (SecurityManagerAtMainApp.LOOKUPS.isEmpty() ? "none" : SecurityManagerAtMainApp.LOOKUPS));
    }
}
