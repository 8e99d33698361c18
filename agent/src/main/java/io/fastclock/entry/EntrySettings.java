package io.fastclock.entry;

import java.util.HashMap;
import java.util.Map;

/**
 * The settings the entry reads before the agent's module exists, with the precedence of every
 * setting (agent argument, then {@code -Dfastclock.*}, then {@code FASTCLOCK_*}): whether they are
 * <em>plain</em>, which lets the entry answer alone on a machine whose system clocks are fast
 * ({@link FastClocksAtEntry}).
 *
 * <p>Plain means that every choice is left to auto and nothing is asked that only the module does:
 * no setting but {@value #PLAIN_KEYS_TEXT}, each with a value the module's io.fastclock.config.Settings
 * accepts and reads the same way. Anything else (a setting it does not know, a bad value, a key
 * given twice, a {@code FASTCLOCK_*} variable it does not know) is not plain: the module then reads
 * the settings, judges them and does what they ask. A value this class does not judge certain goes
 * the same way, so it may only be stricter than Settings, never more lenient.
 */
final class EntrySettings {
    static final String PLAIN_KEYS_TEXT = "start, log, mode, millis, nanos, threshold, sysfs, procfs";
    static final String[] PLAIN_KEYS = {"start", "log", "mode", "millis", "nanos", "threshold", "sysfs", "procfs"};
    private static final String PROPERTY_PREFIX = "fastclock.";
    private static final String ENV_PREFIX = "FASTCLOCK_";
    static final long DEFAULT_THRESHOLD_NS = 100;
    static final long MAX_THRESHOLD_NS = 1_000_000;

    /** Each plain key's value from the source of highest precedence that gives it. */
    private final Map<String, String> values = new HashMap<>();
    private boolean plain = true;

    private EntrySettings() {}

    static EntrySettings read(String agentArgs, Map<?, ?> systemProperties, Map<String, String> environment) {
        EntrySettings s = new EntrySettings();
        // Lowest precedence first, each source overriding the one before, as Settings.parse does.
        for (Map.Entry<String, String> e : environment.entrySet()) {
            String name = e.getKey();
            if (name.startsWith(ENV_PREFIX) && !e.getValue().trim().isEmpty()) { // Settings ignores a blank one
                s.put(name.substring(ENV_PREFIX.length()).toLowerCase(java.util.Locale.ROOT), e.getValue());
            }
        }
        for (Map.Entry<?, ?> e : systemProperties.entrySet()) {
            if (e.getKey() instanceof String && ((String) e.getKey()).startsWith(PROPERTY_PREFIX)) {
                Object value = e.getValue();
                s.put(((String) e.getKey()).substring(PROPERTY_PREFIX.length()), value instanceof String ? (String) value : "");
            }
        }
        if (agentArgs != null) {
            Map<String, String> seen = new HashMap<>();
            for (String pair : agentArgs.split(",", -1)) {
                if (pair.trim().isEmpty()) {
                    continue;
                }
                int eq = pair.indexOf('=');
                if (eq < 0 || seen.put(pair.substring(0, eq).trim(), "") != null) {
                    s.plain = false; // Settings refuses both; a refused start is the module's to say
                    continue;
                }
                s.put(pair.substring(0, eq).trim(), pair.substring(eq + 1));
            }
        }
        s.plain = s.plain && s.plainValues();
        return s;
    }

    private void put(String key, String value) {
        for (String plainKey : PLAIN_KEYS) {
            if (plainKey.equals(key)) {
                values.put(key, value.trim());
                return;
            }
        }
        plain = false;
    }

    /** Every choice auto and nothing else asked, each value one Settings accepts. */
    boolean plain() {
        return plain;
    }

    boolean quiet() {
        return "quiet".equalsIgnoreCase(values.get("log"));
    }

    long thresholdNs() {
        String v = values.get("threshold");
        return v == null ? DEFAULT_THRESHOLD_NS : Long.parseLong(v);
    }

    /** The directory standing in for /sys. */
    String sysfs() {
        String v = values.get("sysfs");
        return v == null ? "/sys" : v;
    }

    private boolean plainValues() {
        return oneOf("start", "wait", "background") && oneOf("log", "quiet", "info", "debug") && oneOf("mode", "auto")
                && oneOf("millis", "auto") && oneOf("nanos", "auto") && threshold() && path("sysfs") && path("procfs");
    }

    /** Absent, or one of the choices in any case (Settings compares them ignoring case). */
    private boolean oneOf(String key, String... choices) {
        String v = values.get(key);
        if (v == null) {
            return true;
        }
        for (String choice : choices) {
            if (choice.equalsIgnoreCase(v)) {
                return true;
            }
        }
        return false;
    }

    private boolean threshold() {
        String v = values.get("threshold");
        if (v == null) {
            return true;
        }
        if (v.isEmpty() || v.length() > 7) {
            return false;
        }
        for (int i = 0; i < v.length(); i++) {
            if (v.charAt(i) < '0' || v.charAt(i) > '9') {
                return false;
            }
        }
        long n = Long.parseLong(v);
        return n >= 1 && n <= MAX_THRESHOLD_NS;
    }

    private boolean path(String key) {
        String v = values.get(key);
        return v == null || !v.isEmpty() && v.indexOf('\0') < 0;
    }
}
