package io.fastclock.agent;

import io.fastclock.config.BuildVersion;
import io.fastclock.config.OneLine;
import io.fastclock.config.PublishedState;
import io.fastclock.config.BackendNames;

import java.lang.instrument.Instrumentation;
import java.util.Collections;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * What the agent is doing (the names are {@link PublishedState}'s), held in three places:
 * <ul>
 * <li>in memory, here: what the MBean and the JFR events read ({@link #get});
 * <li>in the JVM's <em>agent properties</em> (jdk.internal.vm.VMSupport.getAgentProperties(), the
 * attach command {@code agentProperties}): what {@code java -jar fastclock.jar status|attach|detach PID}
 * read. Application code cannot write them, as java.base exports jdk.internal.vm to this module only;
 * <li>as system properties, a mirror for the application ({@code fastclock.active}) and for
 * {@code jcmd PID VM.system_properties}: informational only, never read by fastclock, since any code
 * in the JVM can set them.
 * </ul>
 * Counts and TSC figures are refreshed about once a second by a daemon thread that runs only while
 * fastclock is active; a TSC fallback is published at once.
 */
public final class AgentState {
    // The names are PublishedState's: the commands, in another JVM, read them there too.
    public static final String ACTIVE = PublishedState.ACTIVE;
    public static final String STARTED = PublishedState.STARTED;
    public static final String VERSION = PublishedState.VERSION;
    public static final String REASON = PublishedState.REASON;
    public static final String MILLIS = PublishedState.MILLIS;
    public static final String NANOS = PublishedState.NANOS;
    public static final String EPOCH = PublishedState.EPOCH;
    public static final String CLASSES = PublishedState.CLASSES;
    public static final String CALLSITES = PublishedState.CALLSITES;
    public static final String JDK_CLASSES = PublishedState.JDK_CLASSES;
    public static final String JDK_CALLSITES = PublishedState.JDK_CALLSITES;
    public static final String TSC_WORST_ERROR_NANOS = PublishedState.TSC_WORST_ERROR_NANOS;
    public static final String TSC_REANCHORS = PublishedState.TSC_REANCHORS;
    public static final String TSC_LAST_RATE_CHANGE_PPM = PublishedState.TSC_LAST_RATE_CHANGE_PPM;
    public static final String FALLBACK = PublishedState.FALLBACK;
    public static final String MILLIS_LAG_MS = PublishedState.MILLIS_LAG_MS;

    private static final Map<String, String> LIVE = new ConcurrentHashMap<>();
    /** The JVM's agent properties, or null where they could not be reached (then status sees no fastclock). */
    private static volatile Properties agentProperties;

    private AgentState() {}

    /**
     * Exports jdk.internal.vm of java.base to this module alone, so that the state can go to the
     * JVM's agent properties. Also for an inactive verdict: attach must see that fastclock is in
     * the JVM (a second copy does nothing) and status must say why it is off. If this fails, the
     * state stays in memory and in the mirror; the commands then report fastclock as not loaded.
     */
    static void open(Instrumentation inst) {
        try {
            Module agent = AgentState.class.getModule();
            Module javaBase = Object.class.getModule();
            if (!javaBase.isExported("jdk.internal.vm", agent)) {
                inst.redefineModule(javaBase, Collections.emptySet(),
                        Collections.singletonMap("jdk.internal.vm", Collections.singleton(agent)),
                        Collections.emptyMap(), Collections.emptySet(), Collections.emptyMap());
            }
            agentProperties = VmAgentProperties.get();
        } catch (RuntimeException | LinkageError e) {
            agentProperties = null;
        }
    }

    /** {@link #get}, for the MBean (observe takes no import of this package); a class, not a lambda: no bootstrap at start-up. */
    static final Function<String, String> READER = new Function<String, String>() {
        @Override
        public String apply(String key) {
            return get(key);
        }
    };

    /** The live value (never a system property), or null when the agent has not published it. */
    public static String get(String key) {
        return LIVE.get(key);
    }

    /** premain or agentmain: the first thing the agent publishes. */
    static void started(String entryPoint) {
        set(STARTED, entryPoint);
        set(VERSION, version());
    }

    /** The agent changes nothing; {@code reason} is its start line, held without the prefix. */
    static void inactive(String reason) {
        set(ACTIVE, "false");
        set(REASON, OneLine.withoutPrefix(reason));
        set(MILLIS, BackendNames.SYSTEM);
        set(NANOS, BackendNames.SYSTEM);
        set(EPOCH, BackendNames.SYSTEM);
    }

    /** The start line's verdict, also when it changed after the fact (retransformation counts). */
    static void reason(String reason) {
        set(REASON, OneLine.withoutPrefix(reason));
    }

    static String version() {
        return BuildVersion.get();
    }

    /**
     * Writes only what changed. The agent properties are written last, after the live value and the
     * mirror, so that a command that sees a value there sees it everywhere.
     */
    static void set(String key, String value) {
        LIVE.put(key, value);
        try {
            if (!value.equals(System.getProperty(key))) {
                System.setProperty(key, value);
            }
        } catch (RuntimeException e) {
            // the mirror is informational; a SecurityManager may forbid it
        }
        Properties agent = agentProperties;
        if (agent != null && !value.equals(agent.getProperty(key))) {
            agent.setProperty(key, value);
        }
    }
}
