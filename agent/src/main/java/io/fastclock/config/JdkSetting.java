package io.fastclock.config;

import java.util.Locale;

/**
 * The {@code jdk} setting: which of the JDK's own classes have their clock calls replaced. Which
 * classes each value covers is the boot runtime's transformer's to know (io.fastclock.rewrite.JdkScope,
 * which the agent gives it by name once the runtime exists).
 */
public enum JdkSetting {
    /** The classes in which java.time's system clock and the legacy date APIs read the clock. */
    TIME,
    /** Every JDK class that calls the clocks, loaded before the agent or later. */
    ALL,
    /** None. */
    NONE;

    public String settingName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
