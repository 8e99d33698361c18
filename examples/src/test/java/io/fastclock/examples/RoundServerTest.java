package io.fastclock.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class RoundServerTest {

    @Test
    void answersEachCommandOnALineOfItsOwn() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        int eventStamps = DemoPoint.all(1, 1).size() - 4; // the rows: 2 clocks, then 6 workloads, one thread each
        new RoundServer(DemoPoint.all(1, 1), out).serve(new BufferedReader(new StringReader(
                "sample 0 0.005 0.01\nsample " + eventStamps + " 0 0.01\nstate\nfly\n")));
        String[] lines = bytes.toString(StandardCharsets.UTF_8).split("\n");
        assertEquals(4, lines.length, bytes.toString(StandardCharsets.UTF_8));
        Sample clock = Sample.parse(lines[0].substring((RoundServer.PREFIX + "sample ").length()));
        assertTrue(clock.nanosPerOp > 0, lines[0]);
        assertEquals(-1, clock.backwards, "the clock loop checks no order");
        assertEquals("event stamps", DemoPoint.all(1, 1).get(eventStamps).workload.name());
        assertEquals(0, Sample.parse(lines[1].substring((RoundServer.PREFIX + "sample ").length())).backwards, lines[1]);
        assertEquals(RoundServer.PREFIX + "state -", lines[2]);
        assertEquals(RoundServer.PREFIX + "unknown command 'fly'", lines[3]);
    }
}
