package io.fastclock.probe;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Reads the facts the decision needs from a {@code /sys} and a {@code /proc} tree (the real ones,
 * or fixture trees standing in for them).
 *
 * <p>It never throws for missing, unreadable, huge or garbage files: each such file becomes a line
 * in {@link MachineFacts#problems()} and the fact it would have given is unknown. Only regular files
 * are opened (a FIFO or device in their place would block or never end); sysfs files are read up
 * to 64 KiB, {@code cpuinfo} up to 4 MiB and only as far as the first {@code flags} line.
 */
public final class MachineReader {

    public static final int SYSFS_CAP = 64 * 1024;
    public static final int CPUINFO_CAP = 4 * 1024 * 1024;

    static final String CLOCKSOURCE_DIR = "devices/system/clocksource/clocksource0";

    // Hand-written character checks instead of java.util.regex: the reader runs at JVM start-up,
    // where loading the regex engine costs a couple of milliseconds.
    private static boolean isClocksourceName(String s) {
        return matchesAll(s, "abcdefghijklmnopqrstuvwxyz0123456789_-");
    }

    private static boolean isCpuFlag(String s) {
        return matchesAll(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-");
    }

    private static boolean isKernelRelease(String s) {
        if (s.isEmpty()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x21 || c > 0x7e) {
                return false;
            }
        }
        return true;
    }

    private static boolean matchesAll(String s, String allowed) {
        if (s.isEmpty()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            if (allowed.indexOf(s.charAt(i)) < 0) {
                return false;
            }
        }
        return true;
    }

    private static List<String> splitWhitespace(String s) {
        List<String> out = new ArrayList<>();
        int start = -1;
        for (int i = 0; i <= s.length(); i++) {
            boolean space = i == s.length() || Character.isWhitespace(s.charAt(i));
            if (space) {
                if (start >= 0) {
                    out.add(s.substring(start, i));
                    start = -1;
                }
            } else if (start < 0) {
                start = i;
            }
        }
        return out;
    }

    private final Path sysfsRoot;
    private final Path procfsRoot;
    private final String arch;
    private final String osVersion;

    /** Reads the given roots; arch and the kernel fallback come from this JVM's system properties. */
    public MachineReader(Path sysfsRoot, Path procfsRoot) {
        this(sysfsRoot, procfsRoot, System.getProperty("os.arch"), System.getProperty("os.version"));
    }

    /**
     * @param arch      {@code os.arch} to report
     * @param osVersion kernel release to use when {@code <proc>/sys/kernel/osrelease} cannot be read
     */
    public MachineReader(Path sysfsRoot, Path procfsRoot, String arch, String osVersion) {
        this.sysfsRoot = sysfsRoot == null ? Paths.get("/sys") : sysfsRoot;
        this.procfsRoot = procfsRoot == null ? Paths.get("/proc") : procfsRoot;
        this.arch = arch;
        this.osVersion = osVersion;
    }

    public MachineFacts read() {
        List<String> problems = new ArrayList<>();
        String current = readCurrentClocksource(problems);

        List<String> available = readAvailableClocksources(problems);
        if (available == null) {
            available = new ArrayList<>();
        }

        Set<String> flags = readCpuFlags(procfsRoot.resolve("cpuinfo"), problems);

        String kernel = null;
        Path osrelease = procfsRoot.resolve("sys/kernel/osrelease");
        String text = readSmall(osrelease, SYSFS_CAP, problems);
        if (text != null) {
            String t = text.trim();
            if (isKernelRelease(t) && t.length() <= 256) {
                kernel = t;
            } else {
                problems.add("garbage in osrelease: " + excerpt(t) + " (" + osrelease + ")");
            }
        }
        if (kernel == null && osVersion != null && !osVersion.isEmpty()) {
            kernel = osVersion;
            problems.add("kernel release taken from os.version: " + osVersion);
        }

        return new MachineFacts(kernel, current, available, flags, arch, problems);
    }

    /** current_clocksource alone: its name, or null (with a problem line) if unreadable. */
    public String readCurrentClocksource(List<String> problems) {
        Path currentFile = sysfsRoot.resolve(CLOCKSOURCE_DIR).resolve("current_clocksource");
        String text = readSmall(currentFile, SYSFS_CAP, problems);
        if (text == null) {
            return null;
        }
        String t = text.trim();
        if (t.isEmpty()) {
            problems.add("current_clocksource is empty: " + currentFile);
            return null;
        }
        if (!isClocksourceName(t)) {
            problems.add("garbage in current_clocksource: " + excerpt(t) + " (" + currentFile + ")");
            return null;
        }
        return t;
    }

    /**
     * available_clocksource alone (what the TSC clock re-checks while running).
     *
     * @return the names listed, or null (with a problem line) if the file could not be read or
     *     held anything but clocksource names
     */
    public List<String> readAvailableClocksources(List<String> problems) {
        Path availableFile = sysfsRoot.resolve(CLOCKSOURCE_DIR).resolve("available_clocksource");
        String text = readSmall(availableFile, SYSFS_CAP, problems);
        if (text == null) {
            return null;
        }
        String t = text.trim();
        if (t.isEmpty()) {
            problems.add("available_clocksource is empty: " + availableFile);
            return null;
        }
        List<String> names = new ArrayList<>();
        for (String name : splitWhitespace(t)) {
            if (!isClocksourceName(name)) {
                // One bad name makes the whole list untrustworthy: treat it as unknown.
                problems.add("garbage in available_clocksource: " + excerpt(t) + " (" + availableFile + ")");
                return null;
            }
            if (!names.contains(name)) {
                names.add(name);
            }
        }
        return names;
    }

    /** Whole file as ISO-8859-1 text, or null (with a problem line) if it cannot be read within the cap. */
    private static String readSmall(Path file, int cap, List<String> problems) {
        try {
            if (!Files.isRegularFile(file)) {
                if (!Files.exists(file)) {
                    problems.add("cannot read " + file + ": NoSuchFileException");
                } else {
                    problems.add("cannot read " + file + ": not a regular file");
                }
                return null;
            }
            try (InputStream in = new FileInputStream(file.toFile())) {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                byte[] buf = new byte[4096];
                int n;
                while ((n = in.read(buf)) > 0) {
                    out.write(buf, 0, n);
                    if (out.size() > cap) {
                        problems.add("cannot read " + file + ": larger than " + (cap / 1024) + " KiB");
                        return null;
                    }
                }
                return new String(out.toByteArray(), StandardCharsets.ISO_8859_1);
            }
        } catch (IOException | RuntimeException e) {
            problems.add("cannot read " + file + ": " + describe(e));
            return null;
        }
    }

    /** Flags of the first processor; empty (with a problem line) if they cannot be read. */
    private Set<String> readCpuFlags(Path cpuinfo, List<String> problems) {
        Set<String> flags = new LinkedHashSet<>();
        try {
            if (!Files.isRegularFile(cpuinfo)) {
                problems.add("cannot read " + cpuinfo + ": "
                        + (Files.exists(cpuinfo) ? "not a regular file" : "NoSuchFileException"));
                return flags;
            }
            try (BufferedReader r = new BufferedReader(new InputStreamReader(
                    new CappedInputStream(new FileInputStream(cpuinfo.toFile()), CPUINFO_CAP), StandardCharsets.ISO_8859_1))) {
                String line;
                while ((line = r.readLine()) != null) {
                    int colon = line.indexOf(':');
                    if (colon < 0) {
                        continue;
                    }
                    String key = line.substring(0, colon).trim();
                    if (!key.equals("flags") && !key.equals("Features")) {
                        continue;
                    }
                    String value = line.substring(colon + 1).trim();
                    int bad = 0;
                    for (String f : splitWhitespace(value)) {
                        if (f.isEmpty()) {
                            continue;
                        }
                        if (isCpuFlag(f) && f.length() <= 64) {
                            flags.add(f);
                        } else {
                            bad++;
                        }
                    }
                    if (bad > 0) {
                        problems.add("garbage in " + cpuinfo + " " + key + ": " + bad + " unreadable flag(s) ignored");
                    }
                    if (flags.isEmpty()) {
                        problems.add("the " + key + " line of " + cpuinfo + " lists no flags");
                    }
                    return flags;
                }
                problems.add("no flags line (or Features line) in " + cpuinfo);
            }
        } catch (CapReachedException e) {
            problems.add("no flags line in the first " + (CPUINFO_CAP / (1024 * 1024)) + " MiB of " + cpuinfo);
        } catch (IOException | RuntimeException e) {
            problems.add("cannot read " + cpuinfo + ": " + describe(e));
        }
        return flags;
    }

    private static String describe(Exception e) {
        String name = e.getClass().getSimpleName();
        String msg = e.getMessage();
        // NoSuchFileException and friends repeat the path as the message.
        if (msg == null || msg.isEmpty() || msg.contains("/")) {
            return name;
        }
        return name + ": " + excerpt(msg);
    }

    /** At most 60 characters of a text, non-printable characters escaped, for a problem line. */
    static String excerpt(String s) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            if (sb.length() >= 60) {
                sb.append("...");
                break;
            }
            char c = s.charAt(i);
            if (c >= 0x20 && c < 0x7f) {
                sb.append(c);
            } else {
                sb.append(String.format(Locale.ROOT, "\\x%02x", (int) c & 0xff));
            }
        }
        return sb.toString();
    }

    private static final class CapReachedException extends IOException {
        private static final long serialVersionUID = 1L;
    }

    /** Fails with {@link CapReachedException} once more than {@code cap} bytes have been read. */
    private static final class CappedInputStream extends FilterInputStream {
        private long remaining;

        CappedInputStream(InputStream in, long cap) {
            super(in);
            this.remaining = cap;
        }

        @Override
        public int read() throws IOException {
            if (remaining <= 0) {
                throw new CapReachedException();
            }
            int b = super.read();
            if (b >= 0) {
                remaining--;
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (remaining <= 0) {
                throw new CapReachedException();
            }
            int n = super.read(b, off, (int) Math.min(len, remaining));
            if (n > 0) {
                remaining -= n;
            }
            return n;
        }
    }
}
