package io.fastclock.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fastclock.it.apps.ForgedLineApp;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The one-line rule holds for names the application chooses: a class-path program calls
 * fastclock's entries with an Instrumentation whose class name holds a newline and a line of its
 * own ("fastclock: active: forged ..."), and the agent module's service with such an entry name.
 * Each refusal is one line on stderr, with the newline escaped; no line of the application's
 * choosing appears as fastclock's.
 */
class ForgedLineIT {
    static final String SPENT = "fastclock: refused: this copy of fastclock has been started already";

    static List<Jdk> jdks() {
        return Jdk.all();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void aClassNameWithANewlineCannotForgeALineOfFastclock(Jdk jdk) throws Exception {
        ForkedJvm.Result r = ForkedJvm.on(jdk).slowClocksource(0).agentArgs("jmx=on")
                .classPath(ConcurrentLoadIT.classPathWithAsm()).main(ForgedLineApp.class, "service").run();
        assertEquals(0, r.exitCode, r.toString());
        assertEquals("3", r.value("calls"), "premain, agentmain and the module's service\n" + r);
        String[] lines = r.stderr.split("\r\n|[\n\r\u2028\u2029\u0085]");
        int refusals = 0;
        for (String line : lines) {
            if (line.isEmpty()) {
                continue;
            }
            assertTrue(line.startsWith("fastclock: "), "a line that is not fastclock's own\n" + r);
            assertFalse(line.startsWith(ForgedLineApp.FORGED), "the application forged a line\n" + r);
            if (line.contains(" refused: ")) {
                // premain and agentmain name the forged class, escaped; the module's service, spent by
                // the entry's one call, refuses without repeating anything the application gave it.
                assertTrue(line.contains("\\u000a" + ForgedLineApp.FORGED) || line.equals(SPENT), line + "\n" + r);
                refusals++;
            }
        }
        assertEquals(3, refusals, r.toString());
        assertEquals(1, r.agentLines().stream().filter(l -> l.startsWith("fastclock: active: currentTimeMillis")).count(),
                r.toString());
    }
}
