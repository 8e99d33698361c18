package io.fastclock.entry;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** What premain writes and decodes without a Charset. */
class EntryLinesTest {
    @Test
    void aLineGoesToStderrOnceWithItsSeparatorAsPrintlnWritesIt() throws Exception {
        PrintStream err = System.err;
        try {
            for (String line : new String[] {"fastclock: inactive: system clocks are fast here (clocksource tsc; 45 ns)", "",
                "fastclock: caf\u00e9 \u20ac"}) {
                ByteArrayOutputStream written = new ByteArrayOutputStream();
                System.setErr(new PrintStream(written, true, "UTF-8"));
                EntryLines.printLine(line);
                ByteArrayOutputStream expected = new ByteArrayOutputStream();
                new PrintStream(expected, true, "UTF-8").println(line);
                assertEquals(expected.toString(StandardCharsets.UTF_8.name()), written.toString(StandardCharsets.UTF_8.name()), line);
            }
        } finally {
            System.setErr(err);
        }
    }

    @Test
    void bytesDecodeOneForOne() {
        byte[] b = {'x', 'a', 'b', (byte) 0xe4, 'y'};
        assertEquals("ab\u00e4", EntryLines.latin1(b, 1, 3));
        assertEquals(new String(b, 1, 3, StandardCharsets.ISO_8859_1), AgentEntry.latin1(b, 1, 3));
    }
}
