package io.fastclock.commands;

import io.fastclock.attach.AttachApi;
import io.fastclock.config.BackendNames;
import io.fastclock.config.OneLine;
import io.fastclock.config.PublishedState;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

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
    /** How the verdict of a detach begins (agent.Detacher's line). */
    static final String DETACHED = "detached";
    static final String MILLIS_LAG_MS = PublishedState.MILLIS_LAG_MS;

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

    /** The JSON schema of {@code status --json} (docs/JSON.md): a field is added within it, never removed or retyped. */
    static final String SCHEMA = "fastclock-status/1";

    /**
     * The fields of docs/JSON.md's status table, every one present (null where not known), in the
     * doctor's names for the same facts; {@code list --json} gives each JVM the same fields.
     */
    Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("pid", pid);
        m.put("jdk", system.getProperty("java.runtime.version", system.getProperty("java.version")));
        m.put("main", mainCommand());
        m.put("loaded", loaded());
        boolean detached = detached();
        m.put("started", p.getProperty(STARTED));
        m.put("version", p.getProperty(VERSION));
        m.put("active", p.getProperty(ACTIVE) == null ? null : active());
        String reason = p.getProperty(REASON);
        m.put("summary", reason == null ? null : "fastclock: " + reason); // the start line, as the doctor's summary
        Map<String, Object> millis = new LinkedHashMap<>();
        millis.put("backend", p.getProperty(MILLIS));
        Long lagMs = number(MILLIS_LAG_MS);
        millis.put("lagNs", lagMs == null ? null : lagMs * 1_000_000L);
        m.put("millis", millis);
        Map<String, Object> nanos = new LinkedHashMap<>();
        nanos.put("backend", p.getProperty(NANOS));
        m.put("nanos", nanos);
        Map<String, Object> javaTime = new LinkedHashMap<>();
        String epoch = p.getProperty(EPOCH);
        javaTime.put("epoch", BackendNames.SYSTEM.equals(epoch) ? "jdk" : epoch); // the doctor's word for the JDK's own read
        m.put("javaTime", javaTime);
        m.put("classes", number(CLASSES));
        m.put("callSites", number(CALLSITES));
        m.put("jdkClasses", number(JDK_CLASSES));
        m.put("jdkCallSites", number(JDK_CALLSITES));
        Map<String, Object> tsc = new LinkedHashMap<>();
        // After a detach they describe a clock nothing reads any more.
        tsc.put("worstErrorNs", detached ? null : number(TSC_WORST));
        tsc.put("reanchors", detached ? null : number(TSC_REANCHORS));
        tsc.put("lastRateChangePpm", detached ? null : decimal(TSC_RATE));
        m.put("tscClock", tsc);
        m.put("fallback", p.getProperty(FALLBACK));
        m.put("pendingGeneratedClasses", loaded() ? pending() : null);
        return m;
    }

    /** A JVM whose state could not be read: its pid and main, every other field null. */
    static Map<String, Object> unread(long pid, String main) {
        Map<String, Object> m = new TargetStatus(pid, new Properties(), new Properties()).toMap();
        m.put("main", main);
        m.put("loaded", null);
        return m;
    }

    /** A published count or duration; null when absent or not a number (an agent of another version). */
    private Long number(String key) {
        try {
            String v = p.getProperty(key);
            return v == null ? null : Long.valueOf(v.trim());
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private Double decimal(String key) {
        try {
            String v = p.getProperty(key);
            return v == null ? null : Double.valueOf(v.trim());
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private String or(String key, String otherwise) {
        String v = get(key);
        return v == null ? otherwise : v;
    }
}
