package io.fastclock.agent;

import io.fastclock.config.Settings;

/**
 * What the agent is doing, published as system properties of the JVM it runs in, so that
 * {@code java -jar fastclock.jar status PID}, {@code jcmd PID VM.system_properties} and the observe
 * stream's MBean can read it (the names below; docs/DEPLOYMENT.md shows them). Counts and TSC figures are refreshed
 * about once a second by a daemon thread that runs only while fastclock is active; a TSC fallback
 * is published at once.
 */
public final class AgentState {
    public static final String ACTIVE = Settings.ACTIVE_PROPERTY;
    public static final String STARTED = "fastclock.started";
    public static final String VERSION = "fastclock.version";
    public static final String REASON = "fastclock.reason";
    public static final String MILLIS = "fastclock.millis";
    public static final String NANOS = "fastclock.nanos";
    public static final String EPOCH = "fastclock.epoch";
    public static final String CLASSES = "fastclock.classes";
    public static final String CALLSITES = "fastclock.callsites";
    public static final String JDK_CLASSES = "fastclock.jdk.classes";
    public static final String JDK_CALLSITES = "fastclock.jdk.callsites";
    public static final String TSC_WORST_ERROR_NANOS = "fastclock.tsc.worstErrorNanos";
    public static final String TSC_REANCHORS = "fastclock.tsc.reanchors";
    public static final String TSC_LAST_RATE_CHANGE_PPM = "fastclock.tsc.lastRateChangePpm";
    public static final String FALLBACK = "fastclock.fallback";

    /** Every name above, in the order status prints them. */
    public static final String[] ALL = {STARTED, VERSION, ACTIVE, REASON, MILLIS, NANOS, EPOCH, CLASSES, CALLSITES,
        JDK_CLASSES, JDK_CALLSITES, TSC_WORST_ERROR_NANOS, TSC_REANCHORS, TSC_LAST_RATE_CHANGE_PPM, FALLBACK};

    private AgentState() {}

    /** premain or agentmain: the first thing the agent publishes. */
    static void started(String entryPoint) {
        set(STARTED, entryPoint);
        set(VERSION, version());
    }

    /** The agent changes nothing; {@code reason} is its start line without the "fastclock: " prefix. */
    static void inactive(String reason) {
        set(ACTIVE, "false");
        set(REASON, withoutPrefix(reason));
        set(MILLIS, "system");
        set(NANOS, "system");
        set(EPOCH, "system");
    }

    /** The start line's verdict, also when it changed after the fact (retransformation counts). */
    static void reason(String reason) {
        set(REASON, withoutPrefix(reason));
    }

    static String version() {
        Package p = AgentState.class.getPackage();
        String v = p == null ? null : p.getImplementationVersion();
        return v == null ? "unknown" : v;
    }

    static String withoutPrefix(String line) {
        return line.startsWith("fastclock: ") ? line.substring("fastclock: ".length()) : line;
    }

    /** Writes only what changed: a property write is a map put, but there is no reason to churn. */
    static void set(String key, String value) {
        if (!value.equals(System.getProperty(key))) {
            System.setProperty(key, value);
        }
    }
}
