package io.fastclock.commands;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * The one fact the commands take from a JVM's performance-data file
 * ({@code /tmp/hsperfdata_USER/PID}, the file jps and jcmd -l list): whether it supports attaching.
 * HotSpot writes the string counter {@code sun.rt.jvmCapabilities}, whose first character is '1'
 * when the attach mechanism is on (jdk.attach's HotSpotAttachProvider reads the same).
 */
final class PerfData {
    private static final byte[] CAPABILITIES = "sun.rt.jvmCapabilities\0".getBytes(StandardCharsets.US_ASCII);

    private PerfData() {}

    /** The file of a JVM, or null when it has none (-XX:-UsePerfData, another tmpdir). */
    static Path file(long pid, String user) {
        Path direct = Paths.get("/tmp", "hsperfdata_" + user, Long.toString(pid));
        if (Files.isRegularFile(direct)) {
            return direct;
        }
        // A JVM in a container: its /tmp as seen through /proc.
        Path inside = Paths.get("/proc", Long.toString(pid), "root", "tmp", "hsperfdata_" + user, Long.toString(pid));
        return Files.isRegularFile(inside) ? inside : null;
    }

    /** TRUE or FALSE from the JVM's capabilities, or null when they cannot be read. */
    static Boolean attachSupported(long pid, String user) {
        Path file = file(pid, user);
        if (file == null) {
            return null;
        }
        try {
            return attachSupported(Files.readAllBytes(file));
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** The entry's name is NUL-terminated and padded; its value is the string of '0'/'1' after it. */
    static Boolean attachSupported(byte[] data) {
        int at = indexOf(data, CAPABILITIES);
        if (at < 0) {
            return null;
        }
        int i = at + CAPABILITIES.length;
        while (i < data.length && data[i] == 0) {
            i++;
        }
        if (i >= data.length || (data[i] != '0' && data[i] != '1')) {
            return null;
        }
        return data[i] == '1';
    }

    private static int indexOf(byte[] data, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= data.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (data[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
