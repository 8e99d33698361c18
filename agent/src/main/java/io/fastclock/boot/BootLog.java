package io.fastclock.boot;

/**
 * What the boot runtime says on stderr (a definition it refused, a loader it leaves alone): one line
 * each, with the agent's prefix and its one-line rule ({@link #escape}), which io.fastclock.config.OneLine
 * applies for the rest of the agent.
 */
public final class BootLog {
    static final String PREFIX = "fastclock: ";

    private final boolean quiet;

    BootLog(boolean quiet) {
        this.quiet = quiet;
    }

    void line(String message) {
        if (!quiet) {
            System.err.println(PREFIX + escape(message));
        }
    }

    /**
     * A name or value from outside written so that the line stays one: control characters, DEL, the
     * C1 controls and the Unicode line and paragraph separators as {@code \\uXXXX}.
     */
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
