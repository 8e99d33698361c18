package io.fastclock.entry;

/**
 * What the entry's helpers share: the entry points' names, the one-line rule (the same as
 * AgentEntry's and the agent module's OneLine, which these classes cannot use: AgentEntryOneLineTest
 * holds the copies together), the line for a start that failed, a sleep that interrupts do not cut,
 * and what premain decodes and prints without a Charset.
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

    /**
     * Bytes as ISO-8859-1 characters, one for one (the file names and sysfs values premain reads).
     * Not through a Charset: StandardCharsets' initialiser loads six charsets into premain.
     */
    @SuppressWarnings("deprecation")
    static String latin1(byte[] b, int offset, int length) {
        return new String(b, 0, offset, length);
    }

    /** Encodings in which an ASCII character is its own byte: a line of them can go to stderr as bytes. */
    private static final String[] ASCII_ENCODINGS = {"UTF-8", "UTF8", "US-ASCII", "ANSI_X3.4-1968", "ISO-8859-1", "ISO8859_1"};

    /** The properties that name stderr's encoding, one JDK or another (stderr.encoding from 19 on). */
    private static final String[] STDERR_ENCODING_PROPERTIES = {"stderr.encoding", "sun.stderr.encoding", "file.encoding"};

    /**
     * A line on stderr, as bytes where it is ASCII and every property that may name stderr's encoding
     * names one that writes ASCII as itself: the first println in a JVM runs its character encoder
     * interpreted (a quarter of a millisecond of premain), writing bytes does not. println otherwise.
     */
    static void printLine(String line) {
        String separator = System.lineSeparator();
        boolean asBytes = System.getProperty("file.encoding") != null;
        for (String property : STDERR_ENCODING_PROPERTIES) {
            String encoding = System.getProperty(property);
            boolean ascii = encoding == null;
            for (String known : ASCII_ENCODINGS) {
                ascii |= known.equalsIgnoreCase(encoding);
            }
            asBytes &= ascii;
        }
        byte[] bytes = new byte[line.length() + separator.length()];
        for (int i = 0; asBytes && i < bytes.length; i++) {
            char c = i < line.length() ? line.charAt(i) : separator.charAt(i - line.length());
            asBytes = c < 0x80;
            bytes[i] = (byte) c;
        }
        if (asBytes) {
            System.err.write(bytes, 0, bytes.length);
            System.err.flush();
        } else {
            System.err.println(line);
        }
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
