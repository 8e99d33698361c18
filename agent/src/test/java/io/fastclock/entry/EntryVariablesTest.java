package io.fastclock.entry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The entry's FASTCLOCK_* variables come from /proc/self/environ: what System.getenv() holds, filtered. */
class EntryVariablesTest {
    @TempDir
    Path dir;

    @Test
    void thisProcessReadsWhatGetenvHolds() {
        // Surefire's JVM: whatever FASTCLOCK_* its parent exported (usually none), the same both ways.
        assertEquals(EntrySettings.ours(System.getenv()), EntrySettings.variables(EntrySettings.ENVIRON));
        assertEquals(EntrySettings.ours(System.getenv()), EntrySettings.variables());
    }

    @Test
    void keepsOnlyOursTheFirstOfANameAndEmptyValues() throws IOException {
        Path environ = write("PATH=/bin\0FASTCLOCK_MODE=on\0FASTCLOCK_LOG=\0FASTCLOCK_MODE=off\0FASTCLOCKX=1\0"
                + "XFASTCLOCK_MODE=1\0FASTCLOCK_NOEQUALS\0\0FASTCLOCK_SYSFS=/a=b\0");
        Map<String, String> expected = new HashMap<>();
        expected.put("FASTCLOCK_MODE", "on");
        expected.put("FASTCLOCK_LOG", "");
        expected.put("FASTCLOCK_SYSFS", "/a=b");
        assertEquals(expected, EntrySettings.variables(environ.toString()));
    }

    @Test
    void aVariableOfOursThatIsNotAsciiIsLeftToGetenv() throws IOException {
        Path environ = write("FASTCLOCK_SYSFS=/tmp/\u00e9t\u00e9\0");
        assertNull(EntrySettings.variables(environ.toString()));
        // another program's non-ASCII variable does not matter
        assertEquals(Collections.singletonMap("FASTCLOCK_MODE", "on"),
                EntrySettings.variables(write("LANG_NAME=\u00e9\0FASTCLOCK_MODE=on\0").toString()));
    }

    @Test
    void aLargeEnvironmentIsReadWhole() throws IOException {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 20_000; i++) {
            sb.append("V").append(i).append("=").append("xxxxxxxxxx").append('\0');
        }
        sb.append("FASTCLOCK_MODE=on\0");
        assertEquals(Collections.singletonMap("FASTCLOCK_MODE", "on"), EntrySettings.variables(write(sb.toString()).toString()));
    }

    @Test
    void anUnreadableOrEmptyFileIsLeftToGetenv() throws IOException {
        assertNull(EntrySettings.variables(dir.resolve("missing").toString()));
        // what the kernel gives once the process's first thread has ended
        assertNull(EntrySettings.variables(write("").toString()));
    }

    private Path write(String content) throws IOException {
        Path p = Files.createTempFile(dir, "environ", "");
        Files.write(p, content.getBytes(StandardCharsets.UTF_8));
        return p;
    }
}
