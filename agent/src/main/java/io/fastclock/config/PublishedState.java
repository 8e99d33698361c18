package io.fastclock.config;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * The names of the state the agent publishes, written only here. agent.AgentState writes them (in
 * memory for the MBean and the JFR events, in the JVM's agent properties for the commands, and as a
 * mirror in the system properties); commands.TargetStatus reads them from another JVM, whose agent
 * may be another version, so a name never changes; {@link Settings} skips them when it reads
 * {@code fastclock.*} system properties as settings (fastclock.millis and fastclock.nanos are both:
 * after start they hold the backend in use, a valid value of the setting). docs/DEPLOYMENT.md shows
 * them.
 */
public final class PublishedState {
    public static final String STARTED = "fastclock.started";
    public static final String VERSION = "fastclock.version";
    public static final String ACTIVE = "fastclock.active";
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
    /** The lag L currentTimeMillis states now, whole ms (restated while running; 0 on the system clock). */
    public static final String MILLIS_LAG_MS = "fastclock.millisLagMs";
    /** Generated classes still to be retransformed after an attach (agent.GeneratedClassesPass). */
    public static final String RETRANSFORM_PENDING = "fastclock.retransform.pending";

    /** Every name above. */
    public static final List<String> ALL = Collections.unmodifiableList(Arrays.asList(STARTED, VERSION, ACTIVE, REASON,
            MILLIS, NANOS, EPOCH, CLASSES, CALLSITES, JDK_CLASSES, JDK_CALLSITES, TSC_WORST_ERROR_NANOS, TSC_REANCHORS,
            TSC_LAST_RATE_CHANGE_PPM, FALLBACK, MILLIS_LAG_MS, RETRANSFORM_PENDING));

    private PublishedState() {}

    /**
     * Whether a property is one of these names or in a group of them (fastclock.jdk.*,
     * fastclock.tsc.*, fastclock.retransform.*: no setting has a dot in its key).
     */
    public static boolean isPublished(String propertyName) {
        for (String name : ALL) {
            int dot = name.indexOf('.', Settings.PROPERTY_PREFIX.length());
            if (name.equals(propertyName) || dot >= 0 && propertyName.startsWith(name.substring(0, dot + 1))) {
                return true;
            }
        }
        return false;
    }
}
