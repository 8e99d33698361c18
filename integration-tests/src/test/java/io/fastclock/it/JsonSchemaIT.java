package io.fastclock.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fastclock.it.apps.FastMachineApp;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The three JSON outputs against their schemas in docs/JSON.md, parsed with Jackson: the doctor's
 * --json, status --json (a JVM with fastclock and one without) and list --json (both among the
 * user's JVMs). Each holds every documented field (unless documented as conditional), nothing
 * undocumented, and every value of its documented type; and the facts the doctor and status share
 * go by the same names.
 *
 * <p>Proves, in docs/CONTRACT.md: report.doctor.
 */
class JsonSchemaIT {
    /** The facts both the doctor's decisions and status give: status's name, and the doctor's under auto. */
    static final List<String> SHARED = Arrays.asList("active", "summary", "millis.backend", "millis.lagNs", "nanos.backend",
            "javaTime.epoch");

    @TempDir
    Path temp;

    /** The schemas are the commands', the same on every JDK (DoctorIT and AttachIT run them on all four). */
    static List<Jdk> jdks() {
        return Jdk.one();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void theDoctorsJsonIsAsDocumented(Jdk jdk) throws Exception {
        ForkedJvm.Result r = ForkedJvm.on(jdk).withoutAgent().jar(ForkedJvm.agentJar(), "--json").run();
        assertEquals(0, r.exitCode, r.toString());
        JsonNode json = new ObjectMapper().readTree(r.stdout);
        assertEquals("fastclock-doctor/1", json.path("schema").asText(), r.stdout);
        JsonSchemaTable doctor = JsonSchemaTable.read("doctor");
        doctor.check(json, r.stdout);
        // On this machine the conditions of the conditional fields hold: they must be there too.
        assertTrue(json.path("native").path("loaded").asBoolean(), r.stdout);
        assertTrue(json.path("tsc").path("checked").asBoolean(), r.stdout);
        java.util.Map<List<String>, JsonNode> leaves = new java.util.LinkedHashMap<>();
        JsonSchemaTable.leaves(json, new java.util.ArrayList<>(), leaves);
        for (JsonSchemaTable.Row row : doctor.rows) {
            if (row.conditional && !row.path.startsWith("jna.")) {
                assertTrue(leaves.keySet().stream().anyMatch(row::matches), row + " missing although its condition holds\n" + r.stdout);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void statusAndListAreAsDocumentedWithTheDoctorsNames(Jdk jdk) throws Exception {
        JsonSchemaTable status = JsonSchemaTable.read("status");
        JsonSchemaTable list = JsonSchemaTable.read("list");
        JsonSchemaTable doctor = JsonSchemaTable.read("doctor");
        for (String fact : SHARED) {
            assertEquals(doctor.row("auto." + fact).type + " or null", status.row(fact).type, fact + ": status and the doctor"
                    + " give it as different types");
        }
        Path trigger = temp.resolve("go");
        // start=wait: the verdict is published before main, so that status reads a decided agent.
        ForkedJvm withAgent = ForkedJvm.on(jdk).agentArgs("mode=on,start=wait").main(FastMachineApp.class, trigger.toString());
        ForkedJvm withoutAgent = ForkedJvm.on(jdk).withoutAgent().main(FastMachineApp.class, trigger.toString());
        try (ForkedJvm.Running with = withAgent.start(); ForkedJvm.Running without = withoutAgent.start()) {
            with.awaitLine("waiting=1");
            without.awaitLine("waiting=1");
            JsonNode active = statusJson(jdk, with.pid(), status);
            assertTrue(active.path("loaded").asBoolean() && active.path("active").isBoolean(), active.toString());
            JsonNode none = statusJson(jdk, without.pid(), status);
            assertTrue(none.path("loaded").isBoolean() && !none.path("loaded").asBoolean() && none.path("active").isNull(),
                    none.toString());
            ForkedJvm.Result r = AttachIT.command(jdk, "list", "--json");
            assertEquals(0, r.exitCode, r.toString());
            JsonNode json = new ObjectMapper().readTree(r.stdout);
            assertEquals("fastclock-list/1", json.path("schema").asText(), r.stdout);
            list.check(json, r.stdout, status);
            for (JsonNode jvm : json.path("jvms")) {
                if (jvm.path("pid").asLong() == with.pid() || jvm.path("pid").asLong() == without.pid()) {
                    JsonNode alone = jvm.path("pid").asLong() == with.pid() ? active : none;
                    assertEquals(alone.path("active"), jvm.path("active"), "list and status disagree\n" + r.stdout);
                }
            }
            Files.createFile(trigger);
            assertEquals(0, with.finish().exitCode);
            assertEquals(0, without.finish().exitCode);
        }
    }

    private static JsonNode statusJson(Jdk jdk, long pid, JsonSchemaTable schema) throws Exception {
        ForkedJvm.Result r = AttachIT.command(jdk, "status", Long.toString(pid), "--json");
        assertEquals(0, r.exitCode, r.toString());
        JsonNode json = new ObjectMapper().readTree(r.stdout);
        assertEquals("fastclock-status/1", json.path("schema").asText(), r.stdout);
        schema.check(json, r.stdout);
        return json;
    }
}
