package io.fastclock.entry;

/**
 * What the entry's helpers share: the entry points' names, the one-line rule (the same as
 * AgentEntry's and the agent module's OneLine, which these classes cannot use: AgentEntryOneLineTest
 * holds the copies together), the line for a start that failed, and a sleep that interrupts do not cut.
 */
final class EntryLines {
    static final String PREMAIN = "premain";
    static final String AGENTMAIN = "agentmain";
    static final String MAIN = "main";

    private EntryLines() {}

    static String oneLine(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0) || c == '\u2028' || c == '\u2029') {
                String hex = Integer.toHexString(c);
                sb.append("\\u").append("0000", hex.length(), 4).append(hex);
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    static void notStarted(Throwable t) {
        System.err.println("fastclock: agent not started, the application runs on the system clocks: "
                + oneLine(String.valueOf(t)));
    }

    /** Sleeps that long, whatever interrupts the thread meanwhile. */
    static void pause(long millis) {
        long deadline = System.nanoTime() + millis * 1_000_000L;
        for (long left; (left = deadline - System.nanoTime()) > 0; ) {
            try {
                Thread.sleep(left / 1_000_000L + 1);
            } catch (InterruptedException e) {
                // an application interrupting every thread does not stop fastclock's threads
            }
        }
    }
}
