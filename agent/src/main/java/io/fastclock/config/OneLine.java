package io.fastclock.config;

/**
 * The one-line rule: every line fastclock writes holds one message, so a name or value from outside
 * (a setting's name or value, a property name, a path, a class name, a published state value) is
 * written with its control characters escaped: {@code \n}, {@code \r} and the rest below 0x20, DEL,
 * the C1 controls and the Unicode line and paragraph separators become {@code \\uXXXX}. The boot
 * runtime's BootLog and the entry apply the same rule with copies of their own (the runtime may not
 * exist where the agent runs, and the entry cannot see this module); OneLineTest holds them together.
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

    public static String escape(String s) {
        if (s == null) {
            return "null";
        }
        int i = 0;
        while (i < s.length() && !escaped(s.charAt(i))) {
            i++;
        }
        if (i == s.length()) {
            return s;
        }
        StringBuilder sb = new StringBuilder(s.length() + 16).append(s, 0, i);
        for (; i < s.length(); i++) {
            char c = s.charAt(i);
            if (escaped(c)) {
                String hex = Integer.toHexString(c);
                sb.append("\\u").append("0000", hex.length(), 4).append(hex);
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    private static boolean escaped(char c) {
        return c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0) || c == '\u2028' || c == '\u2029';
    }
}
