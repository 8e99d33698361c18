package io.fastclock.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** java -jar fastclock.jar: the report a person reads, and its JSON form. */
class DoctorIT {
    static List<Jdk> jdks() {
        return Jdk.all();
    }

    @TempDir
    Path temp;

    private static ForkedJvm doctor(Jdk jdk, String... args) {
        return ForkedJvm.on(jdk).withoutAgent().jar(ForkedJvm.agentJar(), args);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void theJsonReportParsesAndHoldsRealMeasurements(Jdk jdk) throws Exception {
        ForkedJvm.Result r = doctor(jdk, "--json").run();
        assertEquals(0, r.exitCode, r.toString());
        assertEquals("", r.stderr.trim(), "the doctor printed warnings\n" + r);
        JsonNode json = new ObjectMapper().readTree(r.stdout);
        assertTrue(json.path("native").path("loaded").asBoolean(), r.stdout);
        assertTrue(json.path("javaNanosPerCall").path("System.nanoTime()").asDouble() > 0, r.stdout);
        assertTrue(json.path("nativeNanosPerCall").path("clock_gettime(CLOCK_MONOTONIC)").asDouble() > 0, r.stdout);
        assertFalse(json.path("auto").path("active").asBoolean(), "auto must leave this tsc machine alone\n" + r.stdout);
        assertTrue(json.path("forcedOn").path("active").asBoolean(), r.stdout);
        assertEquals("tsc", json.path("forcedOn").path("nanos").path("backend").asText(), r.stdout);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void theTextReportSaysWhatAutoWouldDo(Jdk jdk) throws Exception {
        ForkedJvm.Result r = doctor(jdk).run();
        assertEquals(0, r.exitCode, r.toString());
        assertTrue(r.stdout.contains("clocksource"), r.stdout);
        assertTrue(r.stdout.contains("auto (the default): inactive"), r.stdout);
        assertTrue(r.stdout.contains("mode=on (forced): ACTIVE"), r.stdout);
        assertTrue(r.stdout.contains("System.currentTimeMillis()"), r.stdout);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void aMachineItCannotReadIsReportedNotACrash(Jdk jdk) throws Exception {
        ForkedJvm.Result r = ForkedJvm.on(jdk).withoutAgent().jvmArg("-Dfastclock.sysfs=" + temp.resolve("none"),
                "-Dfastclock.procfs=" + temp.resolve("none")).jar(ForkedJvm.agentJar(), "--json").run();
        assertEquals(0, r.exitCode, r.toString());
        JsonNode json = new ObjectMapper().readTree(r.stdout);
        assertTrue(json.path("machine").path("problems").size() > 0, r.stdout);
    }
}
