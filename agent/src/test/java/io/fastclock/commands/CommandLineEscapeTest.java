package io.fastclock.commands;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** An argument the commands echo on stderr stays on its line: its control characters are escaped. */
class CommandLineEscapeTest {
    private static final String FORGED = "fastclock: active: forged";

    @Test
    void everyEchoedArgumentStaysOnTheLineThatNamesIt() {
        String bad = "x\n" + FORGED;
        String[][] commands = {{bad}, {"attach", bad}, {"attach", "1", "--" + bad}, {"status", bad}, {"status", "1", "--" + bad},
            {"detach", bad}, {"detach", "1", "--" + bad}, {"list", "--" + bad}, {"--" + bad}};
        for (String[] args : commands) {
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int status = Commands.run(args, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                    new PrintStream(err, true, StandardCharsets.UTF_8));
            String e = err.toString(StandardCharsets.UTF_8);
            assertEquals(Commands.USAGE, status, String.join(" ", args) + ": " + e);
            String first = e.split("\n", 2)[0];
            assertTrue(first.contains("x\\u000a" + FORGED), String.join(" ", args) + ": " + e);
            for (String line : e.split("\n")) {
                assertTrue(!line.startsWith(FORGED), String.join(" ", args) + ": " + e);
            }
        }
    }
}
