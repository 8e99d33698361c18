package io.fastclock.commands;

import io.fastclock.attach.AttachApi;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import io.fastclock.config.OneLine;
import io.fastclock.config.PublishedState;

/**
 * fastclock's state in a JVM, as the agent publishes it in the JVM's agent properties
 * (agent.AgentState), which application code cannot write; never from the fastclock.* system
 * properties (a mirror any code can set). The JDK and main class come from the system properties.
 * Values are shown with control characters escaped, so that each stays on its line.
 */
final class TargetStatus {
    /** The names agent.AgentState publishes: config.PublishedState's (the commands load no agent class). */
    static final String ACTIVE = PublishedState.ACTIVE;
    static final String STARTED = PublishedState.STARTED;
    static final String VERSION = PublishedState.VERSION;
    static final String REASON = PublishedState.REASON;
    static final String MILLIS = PublishedState.MILLIS;
    static final String NANOS = PublishedState.NANOS;
    static final String EPOCH = PublishedState.EPOCH;
    static final String CLASSES = PublishedState.CLASSES;
    static final String CALLSITES = PublishedState.CALLSITES;
    static final String JDK_CLASSES = PublishedState.JDK_CLASSES;
    static final String JDK_CALLSITES = PublishedState.JDK_CALLSITES;
    static final String TSC_WORST = PublishedState.TSC_WORST_ERROR_NANOS;
    static final String TSC_REANCHORS = PublishedState.TSC_REANCHORS;
    static final String TSC_RATE = PublishedState.TSC_LAST_RATE_CHANGE_PPM;
    static final String FALLBACK = PublishedState.FALLBACK;
    static final String PENDING = PublishedState.RETRANSFORM_PENDING;
    /** What status shows, in its order (not the stated lag). */
    static final String[] PUBLISHED = {STARTED, VERSION, ACTIVE, REASON, MILLIS, NANOS, EPOCH, CLASSES, CALLSITES,
        JDK_CLASSES, JDK_CALLSITES, TSC_WORST, TSC_REANCHORS, TSC_RATE, FALLBACK, PENDING};
    /** How the verdict of a detach begins (agent.Detacher's line). */
    static final String DETACHED = "detached";
    /** The TSC clock's figures: after a detach they describe a clock nothing reads any more. */
    private static final List<String> TSC_FIGURES = Arrays.asList(TSC_WORST, TSC_REANCHORS, TSC_RATE);

    final long pid;
    /** The agent's state: the target's agent properties. */
    private final Properties p;
    /** The target's system properties: only its JDK and main class are read from them. */
    private final Properties system;

    TargetStatus(long pid, Properties systemProperties, Properties agentProperties) {
        this.pid = pid;
        this.system = systemProperties;
        this.p = agentProperties;
    }

    /** Through one attach: {@link AttachApi#systemAndAgentProperties}. */
    static TargetStatus read(AttachApi api, long pid) throws java.io.IOException {
        Properties[] both = api.systemAndAgentProperties(Long.toString(pid));
        return new TargetStatus(pid, both[0], both[1]);
    }

    /** The agent has run its entry point in that JVM (whatever it decided). */
    boolean loaded() {
        return p.getProperty(STARTED) != null;
    }

    /** The agent decided (active or not) and said why. */
    boolean decided() {
        return p.getProperty(ACTIVE) != null && p.getProperty(REASON) != null;
    }

    /** Generated classes the agent has still to retransform in the background, 0 when none. */
    long pending() {
        try {
            return Long.parseLong(p.getProperty(PENDING, "0"));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    boolean active() {
        return "true".equals(p.getProperty(ACTIVE));
    }

    /** fastclock was detached: its counts and TSC figures stopped where the detach left them. */
    boolean detached() {
        String reason = p.getProperty(REASON);
        return !active() && reason != null && reason.startsWith(DETACHED);
    }

    String get(String key) {
        String v = p.getProperty(key);
        return v == null ? null : OneLine.escape(v);
    }

    String jdk() {
        String v = OneLine.escape(system.getProperty("java.runtime.version", system.getProperty("java.version", "?")));
        return "JDK " + v;
    }

    int jdkFeature() {
        String spec = system.getProperty("java.specification.version", "0");
        try {
            return spec.startsWith("1.") ? Integer.parseInt(spec.substring(2)) : Integer.parseInt(spec);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    String mainCommand() {
        String command = OneLine.escape(system.getProperty("sun.java.command", ""));
        int space = command.indexOf(' ');
        return space < 0 ? command : command.substring(0, space);
    }

    /** "JVM 1234 (JDK 17.0.15+6, com.acme.App)". */
    String title() {
        String main = mainCommand();
        return "JVM " + pid + " (" + jdk() + (main.isEmpty() ? "" : ", " + main) + ")";
    }

    String text() {
        StringBuilder b = new StringBuilder();
        b.append(title()).append(": ");
        if (!loaded()) {
            return b.append("fastclock is not loaded\n").toString();
        }
        b.append("fastclock ").append(or(VERSION, "?")).append(", loaded by ").append(get(STARTED)).append('\n');
        b.append("  active:            ").append(or(ACTIVE, "not decided yet")).append('\n');
        b.append("  verdict:           ").append(or(REASON, "-")).append('\n');
        b.append("  currentTimeMillis: ").append(or(MILLIS, "-")).append('\n');
        b.append("  nanoTime:          ").append(or(NANOS, "-")).append('\n');
        b.append("  java.time epoch:   ").append(or(EPOCH, "-")).append('\n');
        String frozen = detached() ? "until the detach: " : "";
        if (get(CLASSES) != null) {
            b.append("  rewritten:         ").append(frozen).append(get(CLASSES)).append(" classes, ").append(or(CALLSITES, "0"))
                    .append(" call sites; JDK classes: ").append(or(JDK_CLASSES, "0")).append(", ")
                    .append(or(JDK_CALLSITES, "0")).append(" call sites\n");
        }
        if (pending() > 0) {
            b.append("  in the background: ").append(pending())
                    .append(" generated classes (no class file to read) still to be checked and rewritten\n");
        }
        if (get(TSC_REANCHORS) != null) {
            b.append("  TSC clock:         ").append(frozen).append("worst error ").append(get(TSC_WORST)).append(" ns, ").append(get(TSC_REANCHORS))
                    .append(" re-anchors, last rate change ").append(or(TSC_RATE, "?")).append(" ppm\n");
        }
        if (get(FALLBACK) != null) {
            b.append("  fallback:          ").append(get(FALLBACK)).append('\n');
        }
        return b.toString();
    }

    Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("pid", pid);
        m.put("jdk", system.getProperty("java.runtime.version", system.getProperty("java.version")));
        m.put("main", mainCommand());
        m.put("loaded", loaded());
        boolean detached = detached();
        for (String key : PUBLISHED) {
            String v = p.getProperty(key);
            if (v != null && !(detached && TSC_FIGURES.contains(key))) {
                m.put(key.equals(PENDING) ? "pendingGeneratedClasses" : key.substring("fastclock.".length()), v);
            }
        }
        return m;
    }

    private String or(String key, String otherwise) {
        String v = get(key);
        return v == null ? otherwise : v;
    }
}
