package io.fastclock.entry;

import java.io.FileInputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The settings the entry reads before the agent's module exists, with the precedence of every
 * setting (agent argument, then {@code -Dfastclock.*}, then {@code FASTCLOCK_*}), for two questions:
 *
 * <ul>
 *   <li><em>plain</em>: whether the entry may answer alone on a machine whose system clocks are fast
 *       ({@link FastClocksAtEntry}): every choice left to auto and nothing asked that only the module
 *       does: no setting but {@value #PLAIN_KEYS_TEXT}, each with a value the module's
 *       io.fastclock.config.Settings accepts and reads the same way;</li>
 *   <li><em>early</em>: whether premain may set up the boot runtime and rewrite every class that loads
 *       from then on, before the verdict, and within what ({@link #earlySettings}): mode not off, and
 *       every setting one this class judges good (a bad one turns fastclock off, with nothing set up).</li>
 * </ul>
 *
 * Anything this class does not judge certain answers no to both, so it may only be stricter than
 * Settings, never more lenient: the module then reads the settings, judges them and does what they
 * ask, taking over what has loaded as an attach does.
 */
final class EntrySettings {
    static final String PLAIN_KEYS_TEXT = "start, log, mode, millis, nanos, threshold, sysfs, procfs";
    static final String[] PLAIN_KEYS = {"start", "log", "mode", "millis", "nanos", "threshold", "sysfs", "procfs"};
    /** Every setting the module knows (EntrySettingsTest holds it to Settings). */
    static final String[] KNOWN_KEYS = {"mode", "millis", "nanos", "include", "exclude", "log", "threshold", "sysfs", "procfs",
        "recheck", "library", "jdk", "jmx", "instant", "start"};
    private static final String PROPERTY_PREFIX = "fastclock.";
    private static final String ENV_PREFIX = "FASTCLOCK_";
    static final long DEFAULT_THRESHOLD_NS = 100;
    static final long MAX_THRESHOLD_NS = 1_000_000;

    /** Each key's value from the source of highest precedence that gives it. */
    private final Map<String, String> values = new HashMap<>();
    /** A key the module does not know, a key given twice, or a pair without '=': the module refuses the lot. */
    private boolean malformed;
    /** A FASTCLOCK_* variable of no setting (the module ignores those a container platform makes up): not plain. */
    private boolean unknownVariable;

    private EntrySettings() {}

    static EntrySettings read(String agentArgs, Map<?, ?> systemProperties, Map<String, String> environment) {
        EntrySettings s = new EntrySettings();
        // Lowest precedence first, each source overriding the one before, as Settings.parse does.
        for (Map.Entry<String, String> e : environment.entrySet()) {
            String name = e.getKey();
            if (name.startsWith(ENV_PREFIX) && !e.getValue().trim().isEmpty()) { // Settings ignores a blank one
                if (!s.put(name.substring(ENV_PREFIX.length()).toLowerCase(Locale.ROOT), e.getValue())) {
                    s.unknownVariable = true;
                }
            }
        }
        for (Map.Entry<?, ?> e : systemProperties.entrySet()) {
            if (e.getKey() instanceof String && ((String) e.getKey()).startsWith(PROPERTY_PREFIX)) {
                Object value = e.getValue();
                if (!s.put(((String) e.getKey()).substring(PROPERTY_PREFIX.length()), value instanceof String ? (String) value : "")) {
                    s.malformed = true;
                }
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
                    s.malformed = true; // Settings refuses both; a refused start is the module's to say
                    continue;
                }
                if (!s.put(pair.substring(0, eq).trim(), pair.substring(eq + 1))) {
                    s.malformed = true;
                }
            }
        }
        return s;
    }

    /**
     * The {@code FASTCLOCK_*} variables, from {@value #ENVIRON} where the java launcher started this JVM:
     * the environment the process started with, which is what System.getenv() holds there (the launcher
     * sets none of ours). Not System.getenv(): its first call builds the whole environment's map, over
     * half a millisecond of premain on every machine. A program that creates the JVM itself (JNI: a
     * Python or C host) may have changed its environment since it started, which only getenv sees: there,
     * and where the file cannot be read whole, is empty (the kernel gives nothing once the process's first
     * thread has ended), or holds a variable of ours that is not ASCII (getenv decodes it in the platform's
     * encoding, which this does not guess), System.getenv()'s, filtered the same. A native agent
     * (-agentpath) that changes ours before premain is not seen here; the module, where it runs, reads
     * getenv.
     */
    static Map<String, String> variables() {
        Map<String, String> fromFile = "SUN_STANDARD".equals(System.getProperty("sun.java.launcher")) ? variables(ENVIRON) : null;
        return fromFile != null ? fromFile : ours(System.getenv());
    }

    static final String ENVIRON = "/proc/self/environ";
    private static final int ENVIRON_CAP = 16 * 1024 * 1024;

    /** null where the file cannot be read whole, is empty, or holds a variable of ours that is not ASCII. */
    static Map<String, String> variables(String environ) {
        byte[] b = new byte[64 * 1024];
        int length = 0;
        try (FileInputStream in = new FileInputStream(environ)) {
            for (int n; (n = in.read(b, length, b.length - length)) > 0; ) {
                length += n;
                if (length == b.length) {
                    if (b.length >= ENVIRON_CAP) {
                        return null;
                    }
                    b = Arrays.copyOf(b, b.length * 2);
                }
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
        if (length == 0) {
            return null;
        }
        Map<String, String> out = new HashMap<>();
        for (int start = 0; start < length; ) {
            int end = start;
            while (end < length && b[end] != 0) {
                end++;
            }
            if (startsWith(b, start, end, ENV_PREFIX)) {
                int eq = start;
                while (eq < end && b[eq] != '=') {
                    eq++;
                }
                for (int i = start; i < end; i++) {
                    if (b[i] < 0) {
                        return null;
                    }
                }
                if (eq < end) { // the first of a name given twice, as getenv
                    out.putIfAbsent(EntryLines.latin1(b, start, eq - start), EntryLines.latin1(b, eq + 1, end - eq - 1));
                }
            }
            start = end + 1;
        }
        return out;
    }

    private static boolean startsWith(byte[] b, int start, int end, String prefix) {
        if (end - start < prefix.length()) {
            return false;
        }
        for (int i = 0; i < prefix.length(); i++) {
            if (b[start + i] != prefix.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    static Map<String, String> ours(Map<String, String> environment) {
        Map<String, String> out = new HashMap<>();
        for (Map.Entry<String, String> e : environment.entrySet()) {
            if (e.getKey().startsWith(ENV_PREFIX)) {
                out.put(e.getKey(), e.getValue());
            }
        }
        return out;
    }

    /** @return false for a key of no setting */
    private boolean put(String key, String value) {
        for (String known : KNOWN_KEYS) {
            if (known.equals(key)) {
                values.put(key, value.trim());
                return true;
            }
        }
        return false;
    }

    /** Every choice auto and nothing else asked, each value one Settings accepts. */
    boolean plain() {
        if (malformed || unknownVariable) {
            return false;
        }
        for (String key : values.keySet()) {
            if (!isPlainKey(key)) {
                return false;
            }
        }
        return oneOf("start", "wait", "background") && oneOf("log", "quiet", "info", "debug") && oneOf("mode", "auto")
                && oneOf("millis", "auto") && oneOf("nanos", "auto") && threshold() && path("sysfs") && path("procfs");
    }

    private static boolean isPlainKey(String key) {
        for (String plainKey : PLAIN_KEYS) {
            if (plainKey.equals(key)) {
                return true;
            }
        }
        return false;
    }

    /** Whether premain may set up the runtime and rewrite from the start (see the class comment). */
    boolean early() {
        return !malformed && oneOf("mode", "auto", "on") && oneOf("millis", "auto", "coarse", "tsc", "jna-coarse", "system")
                && oneOf("nanos", "auto", "tsc", "system", "coarse") && prefixes("include") && prefixes("exclude")
                && oneOf("jdk", "time", "all", "none") && oneOf("instant", "auto", "coarse") && oneOf("log", "quiet", "info", "debug")
                && oneOf("start", "wait", "background") && oneOf("jmx", "auto", "on", "off") && threshold()
                && number("recheck", 50, 60_000) && path("sysfs") && path("procfs") && path("library");
    }

    /** mode, millis and nanos all left to auto: on fast system clocks, the module would only say so. */
    boolean choicesAuto() {
        return isOrAbsent("mode", "auto") && isOrAbsent("millis", "auto") && isOrAbsent("nanos", "auto");
    }

    /**
     * What the boot runtime's transformer rewrites from premain on, as io.fastclock.boot.EarlyStart
     * reads it: include, exclude, jdk, the clocks that may switch, log. A clock the settings keep on
     * the system clock is not rewritten; the epoch read is only ever the JDK's classes'.
     */
    String[] earlySettings() {
        String jdk = values.getOrDefault("jdk", "time").toLowerCase(Locale.ROOT);
        StringBuilder served = new StringBuilder();
        if (!"system".equalsIgnoreCase(values.get("millis"))) {
            served.append("millis,");
        }
        if (!"system".equalsIgnoreCase(values.get("nanos"))) {
            served.append("nanos,");
        }
        if (!jdk.equals("none")) {
            served.append("epoch");
        }
        return new String[] {values.getOrDefault("include", ""), values.getOrDefault("exclude", ""), jdk, served.toString(),
            values.getOrDefault("log", "info")};
    }

    boolean quiet() {
        return "quiet".equalsIgnoreCase(values.get("log"));
    }

    /** start=background, the default: any value but wait (a bad one is the module's to refuse, before main). */
    boolean background() {
        String start = values.get("start");
        return start == null || start.equalsIgnoreCase("background");
    }

    long thresholdNs() {
        String v = values.get("threshold");
        return v == null || !threshold() ? DEFAULT_THRESHOLD_NS : Long.parseLong(v);
    }

    /** The directory standing in for /sys. */
    String sysfs() {
        String v = values.get("sysfs");
        return v == null ? "/sys" : v;
    }

    private boolean isOrAbsent(String key, String value) {
        String v = values.get(key);
        return v == null || v.equalsIgnoreCase(value);
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
        return number("threshold", 1, MAX_THRESHOLD_NS);
    }

    /** Absent, or a whole number from min to max. */
    private boolean number(String key, long min, long max) {
        String v = values.get(key);
        if (v == null) {
            return true;
        }
        if (v.isEmpty() || v.length() > 9) {
            return false;
        }
        for (int i = 0; i < v.length(); i++) {
            if (v.charAt(i) < '0' || v.charAt(i) > '9') {
                return false;
            }
        }
        long n = Long.parseLong(v);
        return n >= min && n <= max;
    }

    private boolean path(String key) {
        String v = values.get(key);
        return v == null || !v.isEmpty() && v.indexOf('\0') < 0;
    }

    /** ':'-separated dotted prefixes of ASCII Java names; stricter than Settings, which takes any Java identifier. */
    private boolean prefixes(String key) {
        String v = values.get(key);
        if (v == null) {
            return true;
        }
        for (String item : v.split(":", -1)) {
            String p = item.trim();
            if (p.isEmpty()) {
                continue;
            }
            if (p.startsWith(".") || p.contains("..")) {
                return false;
            }
            for (int i = 0; i < p.length(); i++) {
                char c = p.charAt(i);
                if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '$' || c == '.')) {
                    return false;
                }
            }
        }
        return true;
    }
}
