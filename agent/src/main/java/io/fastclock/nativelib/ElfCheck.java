package io.fastclock.nativelib;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * Looks at a library file before the JVM is asked to load it: handing dlopen a file that is not a
 * 64-bit ELF shared object makes JDK 17 print a stack-guard warning on the host's stderr.
 */
final class ElfCheck {
    private static final int ET_DYN = 3;

    private ElfCheck() {}

    /** @return null if the file looks like a loadable 64-bit little-endian ELF shared object, else why not */
    static String problem(Path file) {
        if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS) && !Files.exists(file)) {
            return "no such file";
        }
        if (!Files.isRegularFile(file)) {
            return "not a regular file";
        }
        byte[] header = new byte[18];
        try (InputStream in = Files.newInputStream(file)) {
            int read = in.readNBytes(header, 0, header.length);
            if (read < header.length) {
                return "too short to be a shared library";
            }
        } catch (IOException e) {
            return "cannot read it: " + e;
        }
        if (header[0] != 0x7f || header[1] != 'E' || header[2] != 'L' || header[3] != 'F') {
            return "not an ELF file";
        }
        if (header[4] != 2 || header[5] != 1) {
            return "not a 64-bit little-endian ELF file";
        }
        int type = (header[16] & 0xff) | ((header[17] & 0xff) << 8);
        if (type != ET_DYN) {
            return "not an ELF shared object";
        }
        return null;
    }
}
