package io.fastclock.commands;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The doctor's command line and its failure handling, with a made-up report. */
class DoctorCommandTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(DoctorCommand.Reporter reporter, String... args) {
        return Commands.run(new DoctorCommand(reporter), args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    private static DoctorCommand.Reporter failing(Throwable t) {
        return (settings, json) -> {
            if (t instanceof RuntimeException) {
                throw (RuntimeException) t;
            }
            throw (Error) t;
        };
    }

    @Test
    void theReportGoesToStdout() {
        assertEquals(0, run((s, json) -> json ? "{}\n" : "report\n"));
        assertEquals("report\n", out());
        assertEquals("", err());
    }

    @Test
    void anUnknownArgumentIsAUsageErrorWithExitStatus2() {
        boolean[] called = {false};
        assertEquals(2, run((s, json) -> {
            called[0] = true;
            return "";
        }, "--jsn"));
        assertFalse(called[0], "no report for a wrong command line");
        assertEquals("", out());
        assertTrue(err().contains("unknown argument '--jsn'") && err().contains("--json"), err());
    }

    @Test
    void aFailureIsOneLineOnStderrAndExitStatus1() {
        assertEquals(1, run(failing(new IllegalStateException("cannot read\nthe machine",
                new java.io.IOException("Permission denied")))));
        assertEquals("", out());
        String e = err();
        assertEquals(1, e.split("\n").length, e);
        assertTrue(e.startsWith("fastclock doctor: could not complete the report: java.lang.IllegalStateException: "
                + "cannot read the machine (at "), e);
        assertTrue(e.contains("cause: java.io.IOException: Permission denied"), e);
    }

    @Test
    void aLinkageErrorIsReportedToo() {
        assertEquals(1, run(failing(new UnsatisfiedLinkError("no clockGettime"))));
        assertTrue(err().contains("java.lang.UnsatisfiedLinkError: no clockGettime"), err());
    }

    @Test
    void withJsonAFailureIsAnErrorField() {
        assertEquals(1, run(failing(new NullPointerException()), "--json"));
        String o = out().trim();
        assertTrue(o.startsWith("{") && o.endsWith("}"), o);
        assertTrue(o.contains("\"error\": \"fastclock doctor: could not complete the report: java.lang.NullPointerException"), o);
        assertEquals(1, err().split("\n").length, err());
    }
}
