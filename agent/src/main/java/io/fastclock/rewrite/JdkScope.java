package io.fastclock.rewrite;

import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * Which of the JDK's own classes the agent changes (setting {@code jdk}). Only their clock calls
 * are replaced, through the same {@link ClockReplacements} table as the application's.
 */
public enum JdkScope {
    /** The classes in which java.time's system clock and the legacy date APIs read the clock. */
    TIME,
    /** Every JDK class that calls the clocks, loaded before the agent or later. */
    ALL,
    /** None. */
    NONE;

    /**
     * Where java.time and the legacy date APIs turn into clock reads (seen with {@code javap -c -p}
     * on JDK 11, 17, 21 and 25): {@code Clock.currentInstant()} (17+, behind {@code Instant.now()} and
     * every {@code now()}), {@code Clock$SystemClock} ({@code instant()} on 11, {@code millis()}),
     * {@code Clock$SystemInstantSource} (17+), {@code new Date()}, the calendars' constructors, and
     * {@code CalendarProviderImpl.getInstance}: {@code Calendar.getInstance()} reads the clock there
     * ({@code Calendar.Builder.setInstant(System.currentTimeMillis())}), not in a calendar's
     * constructor. A class missing from a JDK is simply never seen.
     */
    public static final List<String> TIME_CLASSES = Collections.unmodifiableList(List.of(
            "java/time/Clock", "java/time/Clock$SystemClock", "java/time/Clock$SystemInstantSource",
            "java/util/Date", "java/util/GregorianCalendar", "java/util/JapaneseImperialCalendar",
            "sun/util/locale/provider/CalendarProviderImpl"));

    private static final java.util.Set<String> TIME_CLASS_BINARY_NAMES = binaryNames(TIME_CLASSES);

    private static java.util.Set<String> binaryNames(List<String> internalNames) {
        java.util.Set<String> out = new java.util.HashSet<>();
        for (String n : internalNames) {
            out.add(n.replace('/', '.'));
        }
        return out;
    }

    /** Binary-name prefixes of the JDK's classes. */
    private static final String[] JDK_BINARY_PREFIXES = {"java.", "jdk.", "sun.", "com.sun."};

    /**
     * A quick first look on a binary name ({@code java.time.Clock}), for scanning the ~1000 classes
     * loaded at start-up without building an internal name for each: false means out of scope.
     */
    public boolean mayCover(String binaryName) {
        for (String p : JDK_BINARY_PREFIXES) {
            if (binaryName.startsWith(p)) {
                return this == ALL || this == TIME && TIME_CLASS_BINARY_NAMES.contains(binaryName);
            }
        }
        return true; // not the JDK's: the class filter decides
    }

    /** Internal-name prefixes of the JDK's classes. */
    public static final List<String> JDK_PREFIXES = Collections.unmodifiableList(List.of("java/", "jdk/", "sun/", "com/sun/"));

    /**
     * Never changed, whatever the setting: the owners of the replaced methods (System's own clock
     * methods are native, and rewriting the class that defines them gains nothing).
     */
    static final List<String> NEVER = Collections.unmodifiableList(List.of("java/lang/System", "jdk/internal/misc/VM"));

    public String settingName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static boolean isJdkClass(String internalName) {
        for (String p : JDK_PREFIXES) {
            if (internalName.startsWith(p)) {
                return true;
            }
        }
        return false;
    }

    /** Whether this JDK class (internal name) is in scope. */
    public boolean covers(String internalName) {
        if (internalName == null || NEVER.contains(internalName)) {
            return false;
        }
        switch (this) {
            case TIME:
                return TIME_CLASSES.contains(internalName);
            case ALL:
                return isJdkClass(internalName);
            default:
                return false;
        }
    }
}
