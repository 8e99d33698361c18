package io.fastclock.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fastclock.it.apps.DemotionApp;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The kernel demotes the TSC while the JVM runs: the agent follows, once, without going backwards. */
class DemotionIT {
    static List<Jdk> jdks() {
        return Jdk.all();
    }

    @TempDir
    Path temp;

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void nanoTimeFallsBackToTheSystemClockWithoutGoingBackwards(Jdk jdk) throws Exception {
        Path sys = temp.resolve("sys");
        Path clocksource = sys.resolve("devices/system/clocksource/clocksource0");
        Files.createDirectories(clocksource);
        Files.write(clocksource.resolve("current_clocksource"), "hpet\n".getBytes());
        Path available = clocksource.resolve("available_clocksource");
        Files.write(available, "tsc hpet acpi_pm\n".getBytes());

        ForkedJvm.Result r = ForkedJvm.on(jdk).agentArgs("mode=on,recheck=100,sysfs=" + sys)
                .main(DemotionApp.class, available.toString()).run();
        System.out.println("[DemotionIT] " + jdk + ": " + r.stdout.replace('\n', ' '));
        assertEquals(0, r.exitCode, r.toString());
        assertTrue(r.stderr.contains("nanoTime -> tsc"), r.toString());
        assertEquals(0, r.longValue("backwards"), r.toString());
        long disabled = r.agentLines().stream().filter(l -> l.contains("TSC clock disabled")).count();
        assertEquals(1, disabled, "the fallback is logged exactly once\n" + r);
        assertTrue(r.stderr.contains("available_clocksource"), r.toString());
        assertTrue(r.longValue("finalDeviationNs") < 1_000_000, "not back on the system clock\n" + r);
        // The contract's 100 us to System.nanoTime holds through the fallback too (the floor is
        // taken at the moment of fallback, not at the end of the TSC clock's current segment).
        assertTrue(r.longValue("worstDeviationNs") <= 100_000, "nanoTime left System.nanoTime's window\n" + r);
    }

    static Path fixtures() {
        return Paths.get("..", "agent", "src", "test", "resources", "fixtures");
    }
}
