package io.fastclock.config;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * The agent's settings, immutable once parsed.
 *
 * <p>Settings come from three places:
 * <ol>
 *   <li>the agent argument string, {@code -javaagent:fastclock.jar=mode=on,nanos=system,include=com.acme.:org.foo.Bar}:
 *       {@code key=value} pairs separated by {@code ','}; list values separated by {@code ':'};
 *       a key given twice is rejected;</li>
 *   <li>system properties {@code -Dfastclock.<key>=<value>};</li>
 *   <li>environment variables {@code FASTCLOCK_<KEY>} (the key in upper case, '-' as '_'). Only the
 *       known keys are read: other {@code FASTCLOCK_*} variables are ignored, because container
 *       platforms make up such names themselves (Kubernetes sets {@code FASTCLOCK_PORT} for a
 *       Service named fastclock). An empty variable counts as unset (templates render unset
 *       values as empty strings).</li>
 * </ol>
 * <b>Precedence: agent argument &gt; system property &gt; environment variable &gt; default</b>: the
 * more specific to this one JVM wins (an image sets the environment for every JVM in it, a command
 * line is one JVM's). Every value is validated, including one that a higher-precedence source
 * overrides, so a mistake never hides.
 *
 * <p>The keys, what each accepts and its default: {@link Key}, the one table of them.
 * Enumerated values are matched ignoring case; keys must be written in lower case.
 *
 * <p>The parser never reads {@link System}; pass the system properties in ({@link #parse(String, Map)}),
 * or use {@link #fromSystem(String)} at the agent's entry point.
 */
public final class Settings {

    /** Whether the agent may rewrite anything. */
    public enum Mode {
        AUTO, ON, OFF;

        public String settingName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** The backend requested for currentTimeMillis: auto, or a backend by its name ({@link Backend}). */
    public enum Millis {
        AUTO("auto"), COARSE(BackendNames.COARSE), TSC(BackendNames.TSC), JNA_COARSE(BackendNames.JNA_COARSE),
        SYSTEM(BackendNames.SYSTEM);

        private final String settingName;

        Millis(String settingName) {
            this.settingName = settingName;
        }

        public String settingName() {
            return settingName;
        }
    }

    /** The backend requested for nanoTime. */
    public enum Nanos {
        AUTO("auto"), TSC(BackendNames.TSC), SYSTEM(BackendNames.SYSTEM), COARSE(BackendNames.COARSE);

        private final String settingName;

        Nanos(String settingName) {
            this.settingName = settingName;
        }

        public String settingName() {
            return settingName;
        }
    }

    /** Whether the agent registers its MBean. */
    public enum Jmx {
        /** Register when the application has a platform MBean server; never create one. */
        AUTO,
        /** Create the platform MBean server at start-up if need be, and register. */
        ON,
        OFF;

        public String settingName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** Who may serve java.time's epoch read (Instant.now() and every now()). */
    public enum InstantClock {
        /** The TSC clock where it runs, else the JDK's own read. */
        AUTO,
        /** As auto, and where no TSC clock runs, the coarse clock currentTimeMillis is on. */
        COARSE;

        public String settingName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** When premain decides (start=...). */
    public enum Start {
        /** premain decides before main runs: coverage from main's first instruction. */
        WAIT,
        /**
         * premain returns at once (the default); the agent decides on a thread of its own and takes
         * over what has loaded meanwhile as an attach does. io.fastclock.entry.EntrySettings reads this
         * key before the agent's module exists.
         */
        BACKGROUND;

        public String settingName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** How much the agent says on stderr. */
    public enum Log {
        QUIET, INFO, DEBUG;

        public String settingName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    // What each row's value is and how it is read (ints, not an enum: no switch-map class at start-up).
    private static final int CHOICE = 0;
    private static final int NUMBER = 1;
    private static final int PREFIXES = 2;
    private static final int DIRECTORY = 3;
    private static final int FILE = 4;

    /**
     * Every setting: its key, what it accepts and its default, in the order messages list them. Each
     * is read the same way from each source ({@code key=value} in the agent argument,
     * {@code -Dfastclock.<key>}, {@code FASTCLOCK_<KEY>}). A row has no class of its own (the table is
     * read in premain, where each class loaded costs), so its value is parsed by {@link #parse}.
     */
    enum Key {
        /** Whether the agent may rewrite anything: auto (default) | on | off. */
        MODE("mode", Mode.values(), Mode.AUTO),
        /** The backend for currentTimeMillis: auto (default) | coarse | tsc | jna-coarse | system. */
        MILLIS("millis", Millis.values(), Millis.AUTO),
        /**
         * The backend for nanoTime: auto (default) | tsc | system | coarse (coarse only when named; it
         * ticks once per kernel tick).
         */
        NANOS("nanos", Nanos.values(), Nanos.AUTO),
        /** Dotted package or class-name prefixes of the classes to rewrite, ':'-separated; empty (default): all. */
        INCLUDE("include", PREFIXES, PREFIXES_ACCEPTED, Collections.emptyList()),
        /** Dotted prefixes of the classes never to rewrite, ':'-separated (exclusion wins); empty by default. */
        EXCLUDE("exclude", PREFIXES, PREFIXES_ACCEPTED, Collections.emptyList()),
        /** How much the agent says on stderr: quiet | info (default) | debug. */
        LOG("log", Log.values(), Log.INFO),
        /** ns per call above which a system clock counts as slow: 1..1000000, 100 by default. */
        THRESHOLD("threshold", 1, 1_000_000, "nanoseconds", 100),
        /** A directory standing in for /sys (default /sys). */
        SYSFS("sysfs", DIRECTORY, "a directory path standing in for /sys", Paths.get("/sys")),
        /** A directory standing in for /proc (default /proc). */
        PROCFS("procfs", DIRECTORY, "a directory path standing in for /proc", Paths.get("/proc")),
        /** The TSC re-check period in ms: 50..60000, 1000 by default. */
        RECHECK("recheck", 50, 60_000, "milliseconds", 1000),
        /** A libfastclock.so to load instead of the bundled one (none by default). */
        LIBRARY("library", FILE, "the path of a libfastclock.so to load instead of the bundled one", null),
        /**
         * Which of the JDK's classes have their clock calls replaced: time (default: java.time's system
         * clock, Date, the calendars) | all (every JDK class that calls the clocks) | none.
         */
        JDK("jdk", JdkSetting.values(), JdkSetting.TIME),
        /**
         * MBean io.fastclock:type=FastClock: auto (default: registered when the application has a
         * platform MBean server) | on (that server is created at start-up) | off.
         */
        JMX("jmx", Jmx.values(), Jmx.AUTO),
        /**
         * Who serves java.time's epoch read (behind Instant.now() and every now()): auto (default: the
         * TSC clock where it runs, else the JDK) | coarse (also, where no TSC clock runs and
         * currentTimeMillis is on a coarse clock, that clock, at one kernel tick of resolution).
         */
        INSTANT("instant", InstantClock.values(), InstantClock.AUTO),
        /**
         * When premain decides: wait (default: before main runs) | background (premain returns at once,
         * main runs on the system clocks until the verdict, then the agent takes over as an attach does).
         */
        START("start", Start.values(), Start.BACKGROUND);

        final String key;
        private final int kind;
        private final Enum<?>[] choices;
        private final long min;
        private final long max;
        /** What the message of a bad value says is accepted, after "accepted values are ". */
        private final String accepted;
        final Object defaultValue;

        Key(String key, Enum<?>[] choices, Enum<?> defaultValue) {
            this(key, CHOICE, choices, 0, 0, "", defaultValue);
        }

        Key(String key, long min, long max, String unit, long defaultValue) {
            this(key, NUMBER, null, min, max, "a whole number of " + unit + " from " + min + " to " + max, defaultValue);
        }

        Key(String key, int kind, String accepted, Object defaultValue) {
            this(key, kind, null, 0, 0, accepted, defaultValue);
        }

        Key(String key, int kind, Enum<?>[] choices, long min, long max, String accepted, Object defaultValue) {
            this.key = key;
            this.kind = kind;
            this.choices = choices;
            this.min = min;
            this.max = max;
            this.accepted = kind == CHOICE ? choiceNames(choices) : accepted;
            this.defaultValue = defaultValue;
        }

        private static String choiceNames(Enum<?>[] choices) {
            StringBuilder names = new StringBuilder();
            for (Enum<?> e : choices) {
                names.append(names.length() == 0 ? "" : ", ").append(settingName(e));
            }
            return names.toString();
        }

        /** The name a value is written with: jna-coarse, else the constant's name in lower case. */
        static String settingName(Enum<?> e) {
            if (e instanceof Millis) {
                return ((Millis) e).settingName();
            }
            if (e instanceof Nanos) {
                return ((Nanos) e).settingName();
            }
            return e.name().toLowerCase(Locale.ROOT);
        }

        /** The value a setting of this key stands for; a bad one names the key, the value, the source and what is accepted. */
        Object parse(String value, String source) {
            if (kind == CHOICE) {
                for (Enum<?> e : choices) {
                    if (settingName(e).equalsIgnoreCase(value)) {
                        return e;
                    }
                }
            } else if (kind == NUMBER) {
                if (!value.isEmpty() && value.length() <= 18 && allDigits(value)) {
                    long n = Long.parseLong(value);
                    if (n >= min && n <= max) {
                        return n;
                    }
                }
            } else if (kind == PREFIXES) {
                return prefixList(this, value, source);
            } else if (!value.isEmpty() && value.indexOf('\0') < 0) {
                try {
                    return kind == FILE ? Paths.get(value).toAbsolutePath() : Paths.get(value);
                } catch (InvalidPathException e) {
                    // as any other bad value
                }
            }
            throw bad(value, source, accepted);
        }

        SettingsException bad(String value, String source, String accepted) {
            return new SettingsException(OneLine.PREFIX + "bad setting " + OneLine.escape(key) + "=" + printable(value) + " ("
                    + source + "): accepted values are " + accepted);
        }

        static Key named(String key) {
            for (Key k : values()) {
                if (k.key.equals(key)) {
                    return k;
                }
            }
            return null;
        }
    }

    private static final String PREFIXES_ACCEPTED =
            "dotted package or class-name prefixes (Java identifier characters and dots) separated by ':'";

    /** The known keys, in the order they are listed in messages. */
    public static final List<String> KEYS = keys();

    private static List<String> keys() {
        List<String> keys = new ArrayList<>();
        for (Key k : Key.values()) {
            keys.add(k.key);
        }
        return Collections.unmodifiableList(keys);
    }

    /**
     * The agent's published state ({@link PublishedState}) that shares the fastclock. prefix and is not a
     * setting: skipped when system properties are read as settings, so that re-reading them in a
     * JVM where the agent runs does not fail. (fastclock.millis and fastclock.nanos are both: the
     * agent overwrites the requested backend with the one in use, a valid value of the setting.)
     */
    static boolean isPublishedState(String propertyName) {
        return PublishedState.isPublished(propertyName) && !KEYS.contains(propertyName.substring(PROPERTY_PREFIX.length()));
    }

    /** Prefix of the system properties: {@code fastclock.<key>}. */
    public static final String PROPERTY_PREFIX = "fastclock.";

    /** Prefix of the environment variables: {@code FASTCLOCK_<KEY>}. */
    public static final String ENV_PREFIX = "FASTCLOCK_";

    private static final String SOURCE_AGENT = "agent argument";

    /** Each key's value, by {@link Key#ordinal()}. */
    private final Object[] values;

    private Settings(Object[] values) {
        this.values = values;
    }

    /** All defaults. */
    public static Settings defaults() {
        return new Builder().build();
    }

    /**
     * Parses the agent argument (may be null or empty), this JVM's {@code fastclock.*} system
     * properties and its {@code FASTCLOCK_*} environment variables.
     */
    public static Settings fromSystem(String agentArgs) {
        Map<String, String> props = new LinkedHashMap<>();
        Properties system = System.getProperties();
        for (String name : system.stringPropertyNames()) {
            props.put(name, system.getProperty(name));
        }
        return parse(agentArgs, props, System.getenv());
    }

    /** The environment variable that stands for a key: {@code FASTCLOCK_} and the key in upper case, '-' as '_'. */
    public static String environmentName(String key) {
        return ENV_PREFIX + key.toUpperCase(Locale.ROOT).replace('-', '_');
    }

    /**
     * Parses the agent argument (may be null or empty) and system properties given as a map
     * (may be null; entries whose name does not start with {@code fastclock.} are ignored).
     *
     * @throws SettingsException naming the first bad setting
     */
    public static Settings parse(String agentArgs, Map<String, String> systemProperties) {
        return parse(agentArgs, systemProperties, null);
    }

    /**
     * Parses the agent argument (may be null or empty), system properties and environment variables
     * (either map may be null; only {@code fastclock.*} properties and the {@code FASTCLOCK_<KEY>}
     * variables of known keys are read).
     *
     * @throws SettingsException naming the first bad setting
     */
    public static Settings parse(String agentArgs, Map<String, String> systemProperties, Map<String, String> environment) {
        Builder b = new Builder();
        // Lowest precedence first: the environment, then system properties, then the agent argument.
        if (environment != null) {
            for (Key key : Key.values()) {
                String name = environmentName(key.key);
                String value = environment.get(name);
                if (value != null && !value.trim().isEmpty()) {
                    b.apply(key.key, value.trim(), "environment variable " + OneLine.escape(name));
                }
            }
        }
        // System properties first (sorted, for a deterministic first error), then the agent
        // argument overrides them.
        if (systemProperties != null) {
            List<String> names = new ArrayList<>();
            for (Map.Entry<String, String> e : systemProperties.entrySet()) {
                if (e.getKey() != null && e.getKey().startsWith(PROPERTY_PREFIX) && !isPublishedState(e.getKey())) {
                    names.add(e.getKey());
                }
            }
            Collections.sort(names);
            for (String name : names) {
                String key = name.substring(PROPERTY_PREFIX.length());
                String value = systemProperties.get(name);
                b.apply(key, value == null ? "" : value.trim(), "system property " + OneLine.escape(name));
            }
        }
        if (agentArgs != null && !agentArgs.trim().isEmpty()) {
            Map<String, Boolean> seen = new LinkedHashMap<>();
            for (String pair : agentArgs.split(",", -1)) {
                if (pair.trim().isEmpty()) {
                    continue; // tolerate "mode=on," and ",,"
                }
                int eq = pair.indexOf('=');
                if (eq < 0) {
                    throw new SettingsException(OneLine.PREFIX + "bad agent argument '" + printable(pair.trim())
                            + "': expected key=value pairs separated by ',' (known settings are "
                            + String.join(", ", KEYS) + ")");
                }
                String key = pair.substring(0, eq).trim();
                String value = pair.substring(eq + 1).trim();
                if (seen.put(key, Boolean.TRUE) != null) {
                    throw new SettingsException(OneLine.PREFIX + "setting '" + printable(key)
                            + "' given twice in agent arguments");
                }
                b.apply(key, value, SOURCE_AGENT);
            }
        }
        return b.build();
    }

    /** Each key's value so far, starting from its default. */
    private static final class Builder {
        final Object[] values = new Object[Key.values().length];

        Builder() {
            for (Key k : Key.values()) {
                values[k.ordinal()] = k.defaultValue;
            }
        }

        void apply(String key, String value, String source) {
            Key k = Key.named(key);
            if (k == null) {
                throw new SettingsException(OneLine.PREFIX + "unknown setting '" + printable(key) + "' ("
                        + source + "): known settings are " + String.join(", ", KEYS));
            }
            values[k.ordinal()] = k.parse(value, source);
        }

        Settings build() {
            return new Settings(values.clone());
        }
    }

    /** A loop, not a stream with a lambda: this runs in premain, where the first lambda costs ms. */
    private static boolean allDigits(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }

    private static List<String> prefixList(Key key, String value, String source) {
        List<String> out = new ArrayList<>();
        if (value.isEmpty()) {
            return Collections.unmodifiableList(out);
        }
        for (String item : value.split(":", -1)) {
            String p = item.trim();
            if (p.isEmpty()) {
                continue;
            }
            if (!validPrefix(p)) {
                throw key.bad(value, source, PREFIXES_ACCEPTED + "; '" + printable(p) + "' is not one");
            }
            out.add(p);
        }
        return Collections.unmodifiableList(out);
    }

    private static boolean validPrefix(String p) {
        if (p.startsWith(".") || p.contains("..")) {
            return false;
        }
        for (int i = 0; i < p.length(); ) {
            int cp = p.codePointAt(i);
            if (cp != '.' && !Character.isJavaIdentifierPart(cp)) {
                return false;
            }
            if (Character.isIdentifierIgnorable(cp)) {
                return false;
            }
            i += Character.charCount(cp);
        }
        return true;
    }

    /** The value as it can be shown on one line: control characters escaped, long values cut. */
    static String printable(String s) {
        StringBuilder sb = new StringBuilder();
        int limit = 80;
        for (int i = 0; i < s.length(); i++) {
            if (sb.length() >= limit) {
                sb.append("...");
                break;
            }
            sb.append(OneLine.escape(String.valueOf(s.charAt(i))));
        }
        return sb.toString();
    }

    public Mode mode() {
        return (Mode) value(Key.MODE);
    }

    public Millis millis() {
        return (Millis) value(Key.MILLIS);
    }

    public Nanos nanos() {
        return (Nanos) value(Key.NANOS);
    }

    /** Dotted prefixes of the classes to rewrite; empty means every class not excluded. */
    public List<String> include() {
        return prefixes(Key.INCLUDE);
    }

    /** Dotted prefixes of the classes never to rewrite; exclusion wins over inclusion. */
    public List<String> exclude() {
        return prefixes(Key.EXCLUDE);
    }

    public Log log() {
        return (Log) value(Key.LOG);
    }

    /** ns per call above which a system clock counts as slow. */
    public long thresholdNs() {
        return (Long) value(Key.THRESHOLD);
    }

    /** The directory standing in for {@code /sys}. */
    public Path sysfsRoot() {
        return (Path) value(Key.SYSFS);
    }

    /** The directory standing in for {@code /proc}. */
    public Path procfsRoot() {
        return (Path) value(Key.PROCFS);
    }

    /** A native library to load instead of the bundled one, or null. */
    public Path library() {
        return (Path) value(Key.LIBRARY);
    }

    /** Whether and when the MBean io.fastclock:type=FastClock is registered. */
    public Jmx jmx() {
        return (Jmx) value(Key.JMX);
    }

    /** Who may serve java.time's epoch read. */
    public InstantClock instant() {
        return (InstantClock) value(Key.INSTANT);
    }

    /** When premain decides: before main (wait) or on a thread of its own (background). */
    public Start start() {
        return (Start) value(Key.START);
    }

    /** Which of the JDK's classes have their clock calls replaced. */
    public JdkSetting jdk() {
        return (JdkSetting) value(Key.JDK);
    }

    /** TSC re-check period in ms. */
    public long recheckMs() {
        return (Long) value(Key.RECHECK);
    }

    private Object value(Key key) {
        return values[key.ordinal()];
    }

    @SuppressWarnings("unchecked")
    private List<String> prefixes(Key key) {
        return (List<String>) values[key.ordinal()];
    }

    /** {@code key=value,...} for every key, in the table's order (lists ':'-separated, no library as empty). */
    @Override
    public String toString() {
        StringBuilder out = new StringBuilder();
        for (Key k : Key.values()) {
            Object v = value(k);
            String text = v == null ? "" : v instanceof Enum ? Key.settingName((Enum<?>) v)
                    : v instanceof List ? String.join(":", prefixes(k)) : v.toString();
            out.append(out.length() == 0 ? "" : ",").append(k.key).append('=').append(text);
        }
        return out.toString();
    }
}
