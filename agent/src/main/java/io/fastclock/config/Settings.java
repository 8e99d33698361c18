package io.fastclock.config;

import io.fastclock.probe.Backend;
import io.fastclock.probe.BackendNames;
import io.fastclock.rewrite.JdkScope;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
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
 * <p>Accepted keys and values (defaults marked *):
 * <ul>
 *   <li>{@code mode}: auto* | on | off</li>
 *   <li>{@code millis}: auto* | coarse | tsc | jna-coarse | system</li>
 *   <li>{@code nanos}: auto* | tsc | system | coarse (coarse only when named; it ticks once per kernel tick)</li>
 *   <li>{@code include}, {@code exclude}: lists of dotted package or class-name prefixes, empty*</li>
 *   <li>{@code log}: quiet | info* | debug</li>
 *   <li>{@code threshold}: ns per call above which a system clock counts as slow, 1..1000000, 100*</li>
 *   <li>{@code sysfs}: directory standing in for {@code /sys}, {@code /sys}*</li>
 *   <li>{@code procfs}: directory standing in for {@code /proc}, {@code /proc}*</li>
 *   <li>{@code recheck}: TSC re-check period in ms, 50..60000, 1000*</li>
 *   <li>{@code jdk}: which of the JDK's classes have their clock calls replaced: time* (java.time's
 *       system clock, Date, the calendars) | all (every JDK class that calls the clocks) | none</li>
 *   <li>{@code jmx}: auto* | on | off (MBean io.fastclock:type=FastClock: auto registers it when
 *       the application has a platform MBean server, on creates that server at start-up)</li>
 *   <li>{@code instant}: auto* (java.time's epoch read, behind Instant.now() and every now(), is
 *       served by the TSC clock where it runs, else by the JDK) | coarse (where no TSC clock runs and
 *       currentTimeMillis is on a coarse clock, that clock serves it too, at one kernel tick of
 *       resolution)</li>
 * </ul>
 * Enumerated values are matched ignoring case; keys must be written in lower case.
 *
 * <p>The parser never reads {@link System}; pass the system properties in ({@link #parse(String, Properties)}),
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

    /** How much the agent says on stderr. */
    public enum Log {
        QUIET, INFO, DEBUG;

        public String settingName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** The known keys, in the order they are listed in messages. */
    public static final List<String> KEYS = Collections.unmodifiableList(Arrays.asList(
            "mode", "millis", "nanos", "include", "exclude", "log", "threshold", "sysfs", "procfs", "recheck", "library", "jdk", "jmx", "instant"));

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

    public static final long DEFAULT_THRESHOLD_NS = 100;
    public static final long MAX_THRESHOLD_NS = 1_000_000;
    public static final long DEFAULT_RECHECK_MS = 1000;
    public static final long MIN_RECHECK_MS = 50;
    public static final long MAX_RECHECK_MS = 60_000;

    private static final String SOURCE_DEFAULT = "default";
    private static final String SOURCE_AGENT = "agent argument";

    private final Mode mode;
    private final Millis millis;
    private final Nanos nanos;
    private final List<String> include;
    private final List<String> exclude;
    private final Log log;
    private final long thresholdNs;
    private final Path sysfsRoot;
    private final Path procfsRoot;
    private final long recheckMs;
    private final Path library;
    private final JdkScope jdk;
    private final Jmx jmx;
    private final InstantClock instant;
    private final Map<String, String> sources;

    private Settings(Builder b) {
        this.mode = b.mode;
        this.millis = b.millis;
        this.nanos = b.nanos;
        this.include = Collections.unmodifiableList(new ArrayList<>(b.include));
        this.exclude = Collections.unmodifiableList(new ArrayList<>(b.exclude));
        this.log = b.log;
        this.thresholdNs = b.thresholdNs;
        this.sysfsRoot = b.sysfsRoot;
        this.procfsRoot = b.procfsRoot;
        this.recheckMs = b.recheckMs;
        this.library = b.library;
        this.jdk = b.jdk;
        this.jmx = b.jmx;
        this.instant = b.instant;
        this.sources = Collections.unmodifiableMap(new LinkedHashMap<>(b.sources));
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

    /** Parses the agent argument (may be null or empty) and the given system properties (may be null). */
    public static Settings parse(String agentArgs, Properties systemProperties) {
        Map<String, String> map = new LinkedHashMap<>();
        if (systemProperties != null) {
            for (String name : systemProperties.stringPropertyNames()) {
                map.put(name, systemProperties.getProperty(name));
            }
        }
        return parse(agentArgs, map);
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
            for (String key : KEYS) {
                String name = environmentName(key);
                String value = environment.get(name);
                if (value != null && !value.trim().isEmpty()) {
                    b.apply(key, value.trim(), "environment variable " + OneLine.escape(name));
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

    private static final class Builder {
        Mode mode = Mode.AUTO;
        Millis millis = Millis.AUTO;
        Nanos nanos = Nanos.AUTO;
        List<String> include = Collections.emptyList();
        List<String> exclude = Collections.emptyList();
        Log log = Log.INFO;
        long thresholdNs = DEFAULT_THRESHOLD_NS;
        Path sysfsRoot = Paths.get("/sys");
        Path procfsRoot = Paths.get("/proc");
        long recheckMs = DEFAULT_RECHECK_MS;
        Path library;
        JdkScope jdk = JdkScope.TIME;
        Jmx jmx = Jmx.AUTO;
        InstantClock instant = InstantClock.AUTO;
        final Map<String, String> sources = new LinkedHashMap<>();

        Builder() {
            for (String k : KEYS) {
                sources.put(k, SOURCE_DEFAULT);
            }
        }

        void apply(String key, String value, String source) {
            switch (key) {
                case "mode":
                    mode = enumValue(Mode.values(), key, value, source);
                    break;
                case "millis":
                    millis = enumValue(Millis.values(), key, value, source);
                    break;
                case "nanos":
                    nanos = enumValue(Nanos.values(), key, value, source);
                    break;
                case "log":
                    log = enumValue(Log.values(), key, value, source);
                    break;
                case "include":
                    include = prefixList(key, value, source);
                    break;
                case "exclude":
                    exclude = prefixList(key, value, source);
                    break;
                case "threshold":
                    thresholdNs = number(key, value, source, 1, MAX_THRESHOLD_NS,
                            "a whole number of nanoseconds from 1 to " + MAX_THRESHOLD_NS);
                    break;
                case "recheck":
                    recheckMs = number(key, value, source, MIN_RECHECK_MS, MAX_RECHECK_MS,
                            "a whole number of milliseconds from " + MIN_RECHECK_MS + " to " + MAX_RECHECK_MS);
                    break;
                case "sysfs":
                    sysfsRoot = directory(key, value, source, "/sys");
                    break;
                case "procfs":
                    procfsRoot = directory(key, value, source, "/proc");
                    break;
                case "library":
                    library = file(key, value, source);
                    break;
                case "jdk":
                    jdk = enumValue(JdkScope.values(), key, value, source);
                    break;
                case "jmx":
                    jmx = enumValue(Jmx.values(), key, value, source);
                    break;
                case "instant":
                    instant = enumValue(InstantClock.values(), key, value, source);
                    break;
                default:
                    throw new SettingsException(OneLine.PREFIX + "unknown setting '" + printable(key) + "' ("
                            + source + "): known settings are " + String.join(", ", KEYS));
            }
            sources.put(key, source);
        }

        Settings build() {
            return new Settings(this);
        }
    }

    private static <E extends Enum<E>> E enumValue(E[] values, String key, String value, String source) {
        List<String> accepted = new ArrayList<>();
        for (E e : values) {
            String name = settingName(e);
            accepted.add(name);
            if (name.equalsIgnoreCase(value)) {
                return e;
            }
        }
        throw bad(key, value, source, "accepted values are " + String.join(", ", accepted));
    }

    private static String settingName(Enum<?> e) {
        if (e instanceof Millis) {
            return ((Millis) e).settingName();
        }
        if (e instanceof Nanos) {
            return ((Nanos) e).settingName();
        }
        return e.name().toLowerCase(Locale.ROOT);
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

    private static long number(String key, String value, String source, long min, long max, String accepted) {
        if (value.isEmpty() || value.length() > 18 || !allDigits(value)) {
            throw bad(key, value, source, "accepted values are " + accepted);
        }
        long n = Long.parseLong(value);
        if (n < min || n > max) {
            throw bad(key, value, source, "accepted values are " + accepted);
        }
        return n;
    }

    private static Path file(String key, String value, String source) {
        String accepted = "accepted values are the path of a libfastclock.so to load instead of the bundled one";
        if (value.isEmpty() || value.indexOf('\0') >= 0) {
            throw bad(key, value, source, accepted);
        }
        try {
            return Paths.get(value).toAbsolutePath();
        } catch (InvalidPathException e) {
            throw bad(key, value, source, accepted);
        }
    }

    private static Path directory(String key, String value, String source, String standsFor) {
        String accepted = "accepted values are a directory path standing in for " + standsFor;
        if (value.isEmpty() || value.indexOf('\0') >= 0) {
            throw bad(key, value, source, accepted);
        }
        try {
            return Paths.get(value);
        } catch (InvalidPathException e) {
            throw bad(key, value, source, accepted);
        }
    }

    private static List<String> prefixList(String key, String value, String source) {
        List<String> out = new ArrayList<>();
        if (value.isEmpty()) {
            return out;
        }
        for (String item : value.split(":", -1)) {
            String p = item.trim();
            if (p.isEmpty()) {
                continue;
            }
            if (!validPrefix(p)) {
                throw bad(key, value, source, "accepted values are dotted package or class-name prefixes"
                        + " (Java identifier characters and dots) separated by ':'; '" + printable(p) + "' is not one");
            }
            out.add(p);
        }
        return out;
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

    private static SettingsException bad(String key, String value, String source, String accepted) {
        return new SettingsException(OneLine.PREFIX + "bad setting " + OneLine.escape(key) + "=" + printable(value) + " (" + source
                + "): " + accepted);
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
        return mode;
    }

    public Millis millis() {
        return millis;
    }

    public Nanos nanos() {
        return nanos;
    }

    /** Dotted prefixes of the classes to rewrite; empty means every class not excluded. */
    public List<String> include() {
        return include;
    }

    /** Dotted prefixes of the classes never to rewrite; exclusion wins over inclusion. */
    public List<String> exclude() {
        return exclude;
    }

    public Log log() {
        return log;
    }

    /** ns per call above which a system clock counts as slow. */
    public long thresholdNs() {
        return thresholdNs;
    }

    /** The directory standing in for {@code /sys}. */
    public Path sysfsRoot() {
        return sysfsRoot;
    }

    /** The directory standing in for {@code /proc}. */
    public Path procfsRoot() {
        return procfsRoot;
    }

    /** A native library to load instead of the bundled one, or null. */
    public Path library() {
        return library;
    }

    /** Whether and when the MBean io.fastclock:type=FastClock is registered. */
    public Jmx jmx() {
        return jmx;
    }

    /** Who may serve java.time's epoch read. */
    public InstantClock instant() {
        return instant;
    }

    /** Which of the JDK's classes have their clock calls replaced. */
    public JdkScope jdk() {
        return jdk;
    }

    /** TSC re-check period in ms. */
    public long recheckMs() {
        return recheckMs;
    }

    /**
     * Where a setting's value came from: {@code "default"}, {@code "agent argument"},
     * {@code "system property fastclock.<key>"} or {@code "environment variable FASTCLOCK_<KEY>"}.
     */
    public String sourceOf(String key) {
        String s = sources.get(key);
        if (s == null) {
            throw new IllegalArgumentException("unknown setting " + key);
        }
        return s;
    }

    /**
     * Whether a class is in scope for rewriting under include/exclude. Accepts dotted
     * ({@code com.acme.Foo}) or internal ({@code com/acme/Foo}) names; prefixes match as written,
     * so {@code com.acme.} covers the package and its sub-packages, {@code com.acme.Foo} also covers
     * {@code com.acme.FooBar} and {@code com.acme.Foo$Inner}.
     */
    public boolean inScope(String className) {
        if (className == null) {
            return false;
        }
        String dotted = className.replace('/', '.');
        for (String p : exclude) {
            if (dotted.startsWith(p)) {
                return false;
            }
        }
        if (include.isEmpty()) {
            return true;
        }
        for (String p : include) {
            if (dotted.startsWith(p)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The warning printed when nanos=coarse is in force, or null if it is not.
     *
     * @param coarseResolutionNs clock_getres of the coarse clock, or -1 if unknown
     */
    public String nanosCoarseWarning(long coarseResolutionNs) {
        if (nanos != Nanos.COARSE) {
            return null;
        }
        return coarseWarning(coarseResolutionNs);
    }

    /** The warning text for a coarse nanoTime, whatever the setting. */
    public static String coarseWarning(long coarseResolutionNs) {
        String res = coarseResolutionNs > 0 ? formatMs(coarseResolutionNs) + " resolution" : "resolution unknown";
        return "nanos=coarse: nanoTime will tick only once per kernel tick (" + res + ")";
    }

    private static String formatMs(long ns) {
        if (ns % 1_000_000 == 0) {
            return (ns / 1_000_000) + " ms";
        }
        return String.format(Locale.ROOT, "%.2f ms", ns / 1e6).replaceAll("0+ ms$", " ms").replace(". ms", " ms");
    }

    @Override
    public String toString() {
        return "mode=" + mode.settingName() + ",millis=" + millis.settingName() + ",nanos=" + nanos.settingName()
                + ",include=" + String.join(":", include) + ",exclude=" + String.join(":", exclude)
                + ",log=" + log.settingName() + ",threshold=" + thresholdNs + ",sysfs=" + sysfsRoot
                + ",procfs=" + procfsRoot + ",recheck=" + recheckMs + ",jdk=" + jdk.settingName() + ",jmx=" + jmx.settingName()
                + ",instant=" + instant.settingName();
    }
}
