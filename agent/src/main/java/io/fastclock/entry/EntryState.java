package io.fastclock.entry;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.lang.instrument.Instrumentation;
import java.lang.module.ModuleDescriptor;
import java.util.Collections;
import java.util.Properties;
import java.util.jar.Manifest;

/**
 * Publishes the entry's inactive verdict ({@link FastClocksAtEntry}) where the agent's module
 * publishes its own (io.fastclock.agent.AgentState, names io.fastclock.config.PublishedState's): in
 * the JVM's agent properties, which status, list and attach read and application code cannot write,
 * and in the system-property mirror. The agent properties are reached through
 * {@code jdk.internal.vm}, exported by the Instrumentation to one module only: the unnamed module of
 * a class loader this class creates and keeps no reference to, holding one class defined from the
 * jar's own bytes. The application's unnamed module gains nothing.
 */
final class EntryState implements Runnable {
    static final String READER_CLASS = "META-INF/fastclock/entry-state/JvmAgentProperties.classdata";
    static final String MANIFEST = "META-INF/MANIFEST.MF";
    static final String STARTED = "fastclock.started";
    static final String VERSION = "fastclock.version";
    static final String ACTIVE = "fastclock.active";
    static final String REASON = "fastclock.reason";
    static final String MILLIS = "fastclock.millis";
    static final String NANOS = "fastclock.nanos";
    static final String EPOCH = "fastclock.epoch";
    /** io.fastclock.config.BackendNames.SYSTEM */
    static final String SYSTEM = "system";
    /** io.fastclock.config.BuildVersion.UNKNOWN */
    static final String UNKNOWN_VERSION = "unknown";
    private static final String PREFIX = "fastclock: ";

    static final String THREAD_NAME = "fastclock-publish";
    static final long PUBLISH_AFTER_MS = 100;
    private static final int VERSION_INDEX = 1;

    /** As the module publishes an inactive verdict; active last (a reader that sees it sees the rest). */
    private final String[] keys = {STARTED, VERSION, REASON, MILLIS, NANOS, EPOCH, ACTIVE};
    private final String[] values;
    /** Cleared as the thread begins: from then on only its stack holds the Instrumentation. */
    private Instrumentation inst;
    /** What the entry read of its jar, made a JarSnapshot on the thread once it has waited (its class is defined there, not in premain). */
    private String jarPath;
    private byte[] region;
    private Object[] directory;

    /** @param reason the start line without its prefix */
    private EntryState(String reason, Instrumentation inst, String jarPath, byte[] region, Object[] directory) {
        this.values = new String[] {EntryLines.PREMAIN, UNKNOWN_VERSION, reason, SYSTEM, SYSTEM, SYSTEM, "false"};
        this.inst = inst;
        this.jarPath = jarPath;
        this.region = region;
        this.directory = directory;
    }

    /**
     * On a machine whose system clocks are fast, with plain settings: says so ({@code line}), publishes
     * it, and defines nothing more (no module, no native library, no observer), whatever {@code start}
     * says. The agent properties are reached on a daemon thread ({@value #THREAD_NAME}), as exporting
     * jdk.internal.vm costs the JVM its first lambdas (milliseconds): main does not wait for what only a
     * command asks.
     *
     * @param jarPath the jar's path
     * @param region what the entry read of the jar (AgentEntry.readJar): the reader's class and the
     *     version come from there
     * @param directory the jar's directory as the entry parsed it (AgentEntry.directory)
     */
    static void answerAlone(String line, EntrySettings settings, Instrumentation inst, String jarPath, byte[] region,
            Object[] directory) {
        if (!settings.quiet()) {
            EntryLines.printLine(line);
        }
        EntryState state = new EntryState(line.substring(PREFIX.length()), inst, jarPath, region, directory);
        state.mirror();
        Thread t = new Thread(state, THREAD_NAME);
        t.setDaemon(true);
        t.start();
    }

    /**
     * The system-property mirror, informational, for the application (any code can set them): at once,
     * but the version, which the thread reads from the jar.
     */
    private void mirror() {
        for (int i = 0; i < keys.length; i++) {
            if (i != VERSION_INDEX) {
                mirror(keys[i], values[i]);
            }
        }
    }

    private static void mirror(String key, String value) {
        try {
            System.setProperty(key, value);
        } catch (RuntimeException e) {
            // a SecurityManager may forbid it
        }
    }

    /**
     * The agent properties, {@value #PUBLISH_AFTER_MS} ms after premain: main does not share the CPUs
     * with this while the JVM starts, and a JVM that ends sooner (a command-line tool) never pays for
     * it. Where they cannot be reached, or a SecurityManager is there by then, status sees no fastclock, as
     * with the module's AgentState.
     */
    @Override
    public void run() {
        Instrumentation handed = inst;
        String path = jarPath;
        byte[] bytes = region;
        Object[] entries = directory;
        inst = null;
        jarPath = null;
        region = null;
        directory = null;
        EntryLines.pause(PUBLISH_AFTER_MS);
        try {
            // Only now: JarSnapshot's class is defined and linked here, not beside main's start.
            Properties agentProperties = agentProperties(handed, new JarSnapshot(path, bytes, entries));
            if (agentProperties == null) {
                return; // a SecurityManager is there: the start line has said the verdict; only the commands miss it
            }
            mirror(VERSION, values[VERSION_INDEX]);
            for (int i = 0; i < keys.length; i++) {
                agentProperties.setProperty(keys[i], values[i]);
            }
        } catch (Exception | LinkageError e) {
            // the start line has said the verdict; only the commands miss it
        }
    }

    /**
     * Reached through a class of a loader of this class's own, java.base exporting jdk.internal.vm to it
     * alone; null where a SecurityManager is installed by then. Main may have installed one since premain
     * looked: the JDK would ask it, with the reader on this stack, as the reader reaches jdk.internal.vm.
     */
    private Properties agentProperties(Instrumentation instrumentation, JarSnapshot jar) throws Exception {
        byte[] reader = jar.read(READER_CLASS);
        if (reader == null) {
            throw new IOException("fastclock.jar lacks " + READER_CLASS);
        }
        byte[] manifest = jar.read(MANIFEST);
        values[VERSION_INDEX] = version(manifest == null ? null : new Manifest(new ByteArrayInputStream(manifest)));
        OwnLoader loader = new OwnLoader(null);
        // The export first, with the loader empty: its first lambdas read system properties, which may run
        // the application's code (a Properties of its own).
        instrumentation.redefineModule(Object.class.getModule(), Collections.emptySet(),
                Collections.singletonMap("jdk.internal.vm", Collections.singleton(loader.getUnnamedModule())),
                Collections.emptyMap(), Collections.emptySet(), Collections.emptyMap());
        // Then no code of the application's on this thread (no reflection: the reader's initialiser answers
        // into the slot its loader hands it), and under System's class lock no SecurityManager installed on
        // another (EntryStart.securityManager).
        Object[] slot = new Object[1];
        synchronized (System.class) {
            if (EntryStart.securityManager()) {
                return null;
            }
            loader.hand(slot);
            Class.forName(loader.define(null, reader).getName(), true, loader);
        }
        return (Properties) slot[0];
    }

    /** As the module shows it: the manifest's version where it is a module version, else unknown. */
    private static String version(Manifest manifest) {
        String v = manifest == null ? null : manifest.getMainAttributes().getValue("Implementation-Version");
        if (v == null) {
            return UNKNOWN_VERSION;
        }
        try {
            ModuleDescriptor.Version.parse(v);
            return v;
        } catch (IllegalArgumentException e) {
            return UNKNOWN_VERSION;
        }
    }
}
