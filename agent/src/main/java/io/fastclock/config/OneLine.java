package io.fastclock.config;

import io.fastclock.boot.BootLog;

/**
 * The one-line rule: every line fastclock writes holds one message, so a name or value from outside
 * (a setting's name or value, a property name, a path, a class name, a published state value) is
 * written with its control characters escaped: {@code \n}, {@code \r} and the rest below 0x20, DEL,
 * the C1 controls and the Unicode line and paragraph separators become {@code \\uXXXX}.
 */
public final class OneLine {
    /**
     * What every line fastclock writes to stderr starts with. Added here ({@link #prefixed}) and taken
     * off here ({@link #withoutPrefix}: the published verdict and the Activation event hold the start
     * line without it); a literal line is written {@code PREFIX + "..."}, a constant.
     */
    public static final String PREFIX = "fastclock: ";

    private OneLine() {}

    /** The line with the prefix, which is added only once. */
    public static String prefixed(String line) {
        return line.startsWith(PREFIX) ? line : PREFIX + line;
    }

    /** The line without the prefix (a start line as the state, the MBean and the Activation event hold it). */
    public static String withoutPrefix(String line) {
        return line.startsWith(PREFIX) ? line.substring(PREFIX.length()) : line;
    }

    /** The boot runtime's rule ({@link BootLog#escape}), which the agent shares. */
    public static String escape(String s) {
        return BootLog.escape(s);
    }
}
