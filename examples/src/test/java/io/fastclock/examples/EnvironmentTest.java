package io.fastclock.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EnvironmentTest {

    @Test
    void clocksourceIsReadAndTrimmedOrUnknown(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("current_clocksource");
        Files.write(f, "hpet\n".getBytes("UTF-8"));
        assertEquals("hpet", Environment.clocksource(f));
        assertEquals("unknown", Environment.clocksource(dir.resolve("missing")));
        Files.write(f, new byte[0]);
        assertEquals("unknown", Environment.clocksource(f));
    }

    @Test
    void simulatorIsRecognisedInLdPreload() {
        assertEquals("no", Environment.simulator(null, null, null, null, null));
        assertEquals("no", Environment.simulator("/lib/libjemalloc.so", "500", null, null, "1"));
        String s = Environment.simulator("/x/libslowclock.so", "500", null, "2000:+5000", null);
        assertTrue(s.startsWith("yes"), s);
        assertTrue(s.contains("SLOWCLOCK_SPIN_NS=500"), s);
        assertTrue(s.contains("SLOWCLOCK_FINE=syscall"), s);
        assertTrue(s.contains("SLOWCLOCK_STEPS=2000:+5000"), s);
        assertFalse(s.contains("SERIALIZE"), s);
        assertTrue(Environment.simulator("/x/libslowclock.so", "500", null, null, "1").contains("SLOWCLOCK_SERIALIZE=1"));
    }

    @Test
    void agentStateComesFromTheProperty() {
        assertEquals("not attached", Environment.agent(null));
        assertTrue(Environment.agent("true").contains("active"));
        assertTrue(Environment.agent("false").contains("inactive"));
    }
}
