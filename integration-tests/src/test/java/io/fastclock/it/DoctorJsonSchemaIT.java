package io.fastclock.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The doctor's --json against the schema documented in docs/DOCTOR-JSON.md (between the
 * doctor-json-schema markers): every documented field is in the real output (unless documented as
 * conditional), and every field of the output is documented. A field that disappears, or one added
 * without documentation, fails here.
 *
 * <p>Proves, in docs/CONTRACT.md: report.doctor.
 */
class DoctorJsonSchemaIT {
    static final String SCHEMA = "fastclock-doctor/1";

    /** The schema is the doctor's text, the same on every JDK (DoctorIT parses the report on all four). */
    static List<Jdk> jdks() {
        return Jdk.one();
    }

    /** One documented row: the dotted path ('*' for a varying key) and whether it is conditional. */
    static final class Row {
        final String[] path;
        final boolean conditional;

        Row(String path, boolean conditional) {
            this.path = path.split("\\.");
            this.conditional = conditional;
        }

        /** A '*' matches one key; a final '*' matches whatever lies below. */
        boolean matches(List<String> leaf) {
            for (int i = 0; i < path.length; i++) {
                boolean last = i == path.length - 1;
                if (i >= leaf.size()) {
                    return false;
                }
                if (path[i].equals("*")) {
                    if (last) {
                        return true;
                    }
                    continue;
                }
                if (!path[i].equals(leaf.get(i))) {
                    return false;
                }
            }
            return leaf.size() == path.length;
        }

        @Override
        public String toString() {
            return String.join(".", path);
        }
    }

    /** Where the schema is documented, relative to the repository root. */
    static final String SCHEMA_DOC = "docs/DOCTOR-JSON.md";

    /**
     * The schema page: found from the working directory (the integration-tests module when Maven
     * runs the test) upwards, so that the test reads the checkout it was built from.
     */
    static Path schemaDoc() {
        Path start = Paths.get(System.getProperty("user.dir")).toAbsolutePath().normalize();
        for (Path dir = start; dir != null; dir = dir.getParent()) {
            Path doc = dir.resolve(SCHEMA_DOC);
            if (Files.isRegularFile(doc)) {
                return doc;
            }
        }
        throw new AssertionError("no " + SCHEMA_DOC + " in " + start + " or any directory above it");
    }

    static List<Row> documentedRows() throws Exception {
        Path doc = schemaDoc();
        String text = new String(Files.readAllBytes(doc), StandardCharsets.UTF_8);
        int begin = text.indexOf("<!-- doctor-json-schema:begin -->");
        int end = text.indexOf("<!-- doctor-json-schema:end -->");
        assertTrue(begin >= 0 && end > begin, "no doctor-json-schema section (begin and end markers) in " + doc);
        List<Row> rows = new ArrayList<>();
        // One row per field: | `path` | type | meaning |, tolerating spaces and CRLF line ends.
        Matcher m = Pattern.compile("(?m)^[ \\t]*\\|[ \\t]*`([^`]+)`[ \\t]*\\|[^|\\n]*\\|(.*)\\|[ \\t]*\\r?$").matcher(text.substring(begin, end));
        while (m.find()) {
            rows.add(new Row(m.group(1).trim(), m.group(2).contains("(only when")));
        }
        assertTrue(rows.size() > 30, "too few documented fields in " + doc + ": " + rows);
        assertTrue(rows.stream().anyMatch(r -> r.toString().equals("schema")), "the schema field is not documented in " + doc);
        return rows;
    }

    /** Every value that is not an object (lists count as values), as its path of keys. */
    static void leaves(JsonNode node, List<String> prefix, List<List<String>> out) {
        if (!node.isObject()) {
            out.add(prefix);
            return;
        }
        Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> e = fields.next();
            List<String> path = new ArrayList<>(prefix);
            path.add(e.getKey());
            leaves(e.getValue(), path, out);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void theJsonReportHoldsEveryDocumentedFieldAndNothingUndocumented(Jdk jdk) throws Exception {
        ForkedJvm.Result r = ForkedJvm.on(jdk).withoutAgent().jar(ForkedJvm.agentJar(), "--json").run();
        assertEquals(0, r.exitCode, r.toString());
        JsonNode json = new ObjectMapper().readTree(r.stdout);
        assertEquals(SCHEMA, json.path("schema").asText(), r.stdout);
        assertEquals("schema", json.fieldNames().next(), "schema comes first\n" + r.stdout);

        List<Row> rows = documentedRows();
        List<List<String>> leaves = new ArrayList<>();
        leaves(json, new ArrayList<>(), leaves);

        List<String> missing = new ArrayList<>();
        for (Row row : rows) {
            boolean present = leaves.stream().anyMatch(row::matches);
            if (!present && !row.conditional) {
                missing.add(row.toString());
            }
        }
        assertEquals(new ArrayList<String>(), missing, "documented fields missing from the report\n" + r.stdout);

        List<String> undocumented = new ArrayList<>();
        for (List<String> leaf : leaves) {
            if (rows.stream().noneMatch(row -> row.matches(leaf))) {
                undocumented.add(String.join(".", leaf));
            }
        }
        assertEquals(new ArrayList<String>(), undocumented, "fields in the report that " + SCHEMA_DOC + " does not describe");

        // On this machine the conditions of the conditional fields hold: they must be there too.
        assertTrue(json.path("native").path("loaded").asBoolean(), r.stdout);
        assertTrue(json.path("tsc").path("checked").asBoolean(), r.stdout);
        for (Row row : rows) {
            if (row.conditional && !row.toString().startsWith("jna.")) {
                assertTrue(leaves.stream().anyMatch(row::matches), row + " missing although its condition holds\n" + r.stdout);
            }
        }
    }
}
