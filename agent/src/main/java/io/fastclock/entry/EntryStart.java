package io.fastclock.entry;

import java.lang.instrument.Instrumentation;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * What premain, agentmain and main do once AgentEntry has checked their caller, read the jar and
 * defined these helpers in a class loader of their own. Its initialiser hands that loader (AgentEntry)
 * an instance, which AgentEntry calls once through {@link #apply}.
 *
 * <p>premain, at start=background (the default): copies the settings' system properties, answers alone
 * where the system clocks are fast and the settings plain ({@link EntryState}), else sets up the boot
 * runtime ({@link RuntimeSetup}: from here on every class that loads calls FastClock, which serves the
 * JDK's clocks until the verdict switches it) and starts {@link BackgroundStart}, which defines the
 * agent's module while main runs. At start=wait the module decides here, before main.
 */
final class EntryStart implements Function<Object[], Object> {
    /** AgentEntry's argument layout (EntryArgumentsTest holds the two together). */
    static final int ENTRY_POINT = 0;
    static final int ARGUMENTS = 1;
    static final int INSTRUMENTATION = 2;
    static final int JAR_PATH = 3;
    static final int REGION = 4;
    static final int INDEX = 5;
    static final int WHOLE_JAR = 6;
    static final int LENGTH = 7;

    /** AgentEntry's answer for "define the module's helpers and call again" (EntryArgumentsTest holds it). */
    static final String MODULE_NEEDED = "module needed";

    /** premain's state between its two calls: the properties premain saw, and the settings. */
    private Map<String, String> properties;
    private EntrySettings settings;
    private String fastLine;
    private boolean firstCallDone;

    static {
        @SuppressWarnings("unchecked")
        Consumer<Function<Object[], Object>> entry = (Consumer<Function<Object[], Object>>) EntryStart.class.getClassLoader();
        entry.accept(new EntryStart());
    }

    private EntryStart() {}

    /**
     * Called twice where the entry does not answer alone: first with only these helpers defined, then,
     * after {@value #MODULE_NEEDED}, with those that define the module too.
     *
     * @return false where main could not run its command; {@value #MODULE_NEEDED} to be called again
     */
    @Override
    public Object apply(Object[] a) {
        if (a == null || a.length != LENGTH) {
            throw new IllegalArgumentException("not the entry's arguments");
        }
        String how = (String) a[ENTRY_POINT];
        if (!firstCallDone) {
            firstCallDone = true;
            if (EntryLines.PREMAIN.equals(how)) {
                properties = settingsProperties(System.getProperties());
                settings = EntrySettings.read((String) a[ARGUMENTS], properties, EntrySettings.variables());
                fastLine = FastClocksAtEntry.fastLine(settings);
                if (fastLine != null && settings.plain() && !securityManager()) {
                    Object[] directory = (Object[]) a[INDEX];
                    EntryState.answerAlone(fastLine, settings, (Instrumentation) a[INSTRUMENTATION], (String) a[JAR_PATH],
                            (byte[]) a[REGION], directory);
                    return Boolean.TRUE;
                }
            }
            return MODULE_NEEDED;
        }
        JarSnapshot jar = new JarSnapshot((String) a[JAR_PATH], (byte[]) a[REGION], (Object[]) a[INDEX]);
        Instrumentation inst = (Instrumentation) a[INSTRUMENTATION];
        try {
            if (EntryLines.PREMAIN.equals(how)) {
                premain((String) a[ARGUMENTS], inst, jar);
            } else if (EntryLines.AGENTMAIN.equals(how)) {
                PrivateModule.define(false, jar).launchAgent(EntryLines.AGENTMAIN, (String) a[ARGUMENTS], inst, null);
            } else {
                PrivateModule.define(true, jar).launchCommandLine((String[]) a[ARGUMENTS]);
            }
            return Boolean.TRUE;
        } catch (Throwable t) {
            if (EntryLines.MAIN.equals(how)) {
                System.err.println("fastclock: cannot start: " + EntryLines.oneLine(String.valueOf(t)));
            } else {
                EntryLines.notStarted(t);
            }
            return Boolean.FALSE;
        }
    }

    /** premain where the entry did not answer alone: the runtime set up where it can be, then the module. */
    private void premain(String args, Instrumentation inst, JarSnapshot jar) throws Exception {
        if (setsUpRuntime()) {
            try {
                RuntimeSetup.install(inst, jar, settings.earlySettings());
            } catch (Throwable t) {
                // The module takes over what has loaded when it decides, as an attach does.
                if (!settings.quiet()) {
                    System.err.println("fastclock: the runtime could not be set up before main ("
                            + EntryLines.oneLine(String.valueOf(t.getCause() != null ? t.getCause() : t))
                            + "); fastclock takes over the classes loaded meanwhile when it decides");
                }
            }
        }
        // A bad setting, or mode=off, is not early: the module only says so, and says it before main
        // (a short program would end before a background thread spoke).
        if (settings.background() && settings.early()) {
            BackgroundStart.start(args, inst, properties, jar);
        } else {
            // null: at start=wait the module reads the system properties itself, before main
            PrivateModule.define(false, jar).launchAgent(EntryLines.PREMAIN, args, inst, null);
        }
    }

    /**
     * Whether premain sets up the boot runtime: settings it may act on before the module, clocks not
     * found fast (or a choice asked of them), and no runtime there already (another copy of the jar,
     * given twice, set it up: the module says so).
     */
    private boolean setsUpRuntime() {
        return settings.early() && !(fastLine != null && settings.choicesAuto()) && !runtimeExists() && !securityManager();
    }

    /**
     * Whether the application runs under a SecurityManager (JDK 23 and older). The JDK then asks it, the
     * application's code, whenever a class of the entry's own loaders (OwnLoader's) resolves a class of a
     * JDK-internal package, with that class on the stack: a StackWalker there gives it a class whose
     * unnamed module opens every package and is exported jdk.internal.misc (the boot runtime's set-up) or
     * jdk.internal.vm (EntryState's reader of the agent properties), and a lookup into it defines a class
     * of its own there. So neither is used: the module, which opens nothing, publishes the verdict and
     * takes over what has loaded when it decides, as an attach does. Code of the application's running
     * meanwhile (main, or threads its system class loader started) may install one at any moment: each
     * loader's classes are defined and run under System's class lock, which System.setSecurityManager takes
     * to install one (setSecurityManager0, static synchronized, JDK 11-23), after this is asked again under
     * it; and no code of the application's runs on that thread meanwhile (the lock is re-entrant): what may
     * call it, the JDK's first lambdas reading system properties, comes before, with the loader empty.
     */
    @SuppressWarnings({"deprecation", "removal"})
    static boolean securityManager() {
        return System.getSecurityManager() != null;
    }

    /** Whether the boot loader holds fastclock's runtime already: only fastclock can define it there. */
    static boolean runtimeExists() {
        try {
            Class.forName("io.fastclock.runtime.FastClock", false, null);
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    /**
     * The settings' system properties, copied on premain's thread: main runs before the agent reads
     * its settings, and a property the application sets meanwhile (fastclock.library, fastclock.sysfs)
     * must not choose what the agent loads or believes.
     */
    static Map<String, String> settingsProperties(Properties system) {
        Map<String, String> copy = new HashMap<>();
        for (String name : system.stringPropertyNames()) {
            if (name.startsWith("fastclock.")) {
                copy.put(name, system.getProperty(name));
            }
        }
        return Collections.unmodifiableMap(copy);
    }
}
