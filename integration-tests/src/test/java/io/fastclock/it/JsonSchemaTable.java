package io.fastclock.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
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

/**
 * One schema table of docs/JSON.md (between its {@code NAME-json-schema} markers): each row a field's
 * dotted path ('*' for a varying key, "[]" after a list of objects), its type and whether it is
 * conditional. {@link #check} holds a real output against it: every field documented, every
 * documented field there, every value of its type.
 */
final class JsonSchemaTable {
    /** Where the schemas are documented, relative to the repository root. */
    static final String DOC = "docs/JSON.md";

    final String name;
    final List<Row> rows;

    private JsonSchemaTable(String name, List<Row> rows) {
        this.name = name;
        this.rows = rows;
    }

    /** One documented field. */
    static final class Row {
        final String path;
        final String[] keys;
        final String type;
        final boolean conditional;

        Row(String path, String type, boolean conditional) {
            this.path = path;
            this.keys = path.split("\\.");
            this.type = type;
            this.conditional = conditional;
        }

        /** A '*' matches one key; a final '*' matches whatever lies below. */
        boolean matches(List<String> leaf) {
            for (int i = 0; i < keys.length; i++) {
                if (i >= leaf.size()) {
                    return false;
                }
                if (keys[i].equals("*")) {
                    if (i == keys.length - 1) {
                        return true;
                    }
                    continue;
                }
                if (!keys[i].equals(leaf.get(i))) {
                    return false;
                }
            }
            return leaf.size() == keys.length;
        }

        /** The part of the leaf's path that the row's final '*' stands for. */
        List<String> below(List<String> leaf) {
            return leaf.subList(keys.length - 1, leaf.size());
        }

        @Override
        public String toString() {
            return path;
        }
    }

    /** The table between the NAME-json-schema markers of the page the tests were built from. */
    static JsonSchemaTable read(String name) throws Exception {
        Path doc = page();
        String text = new String(Files.readAllBytes(doc), StandardCharsets.UTF_8);
        int begin = text.indexOf("<!-- " + name + "-json-schema:begin -->");
        int end = text.indexOf("<!-- " + name + "-json-schema:end -->");
        assertTrue(begin >= 0 && end > begin, "no " + name + "-json-schema section (begin and end markers) in " + doc);
        List<Row> rows = new ArrayList<>();
        // One row per field: | `path` | type | meaning |, tolerating spaces and CRLF line ends.
        Matcher m = Pattern.compile("(?m)^[ \\t]*\\|[ \\t]*`([^`]+)`[ \\t]*\\|([^|\\n]*)\\|(.*)\\|[ \\t]*\\r?$")
                .matcher(text.substring(begin, end));
        while (m.find()) {
            rows.add(new Row(m.group(1).trim(), m.group(2).trim(), m.group(3).contains("(only when")));
        }
        assertTrue(rows.stream().anyMatch(r -> r.path.equals("schema")), "the schema field is not documented in " + name);
        return new JsonSchemaTable(name, rows);
    }

    /**
     * The page: found from the working directory (the integration-tests module when Maven runs the
     * test) upwards, so that the test reads the checkout it was built from.
     */
    static Path page() {
        Path start = Paths.get(System.getProperty("user.dir")).toAbsolutePath().normalize();
        for (Path dir = start; dir != null; dir = dir.getParent()) {
            Path doc = dir.resolve(DOC);
            if (Files.isRegularFile(doc)) {
                return doc;
            }
        }
        throw new AssertionError("no " + DOC + " in " + start + " or any directory above it");
    }

    Row row(String path) {
        return rows.stream().filter(r -> r.path.equals(path)).findFirst()
                .orElseThrow(() -> new AssertionError("no row " + path + " in the " + name + " schema"));
    }

    /**
     * Every value that is not an object, as its path of keys; a list of objects is entered, its key
     * written with "[]" (a list of anything else is one value).
     */
    static void leaves(JsonNode node, List<String> prefix, Map<List<String>, JsonNode> out) {
        if (node.isArray() && node.size() > 0 && node.get(0).isObject() && !prefix.isEmpty()) {
            List<String> listed = new ArrayList<>(prefix);
            listed.set(listed.size() - 1, listed.get(listed.size() - 1) + "[]");
            for (JsonNode item : node) {
                leaves(item, listed, out);
            }
            return;
        }
        if (!node.isObject()) {
            out.put(prefix, node);
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

    /**
     * Fails, naming the fields, where the output lacks a documented field that is not conditional,
     * holds one not documented, or holds a value not of its documented type. {@code others} are the
     * tables an {@code as `NAME`} row refers to.
     */
    void check(JsonNode json, String output, JsonSchemaTable... others) {
        assertEquals("schema", json.fieldNames().next(), "schema comes first\n" + output);
        Map<List<String>, JsonNode> leaves = new java.util.LinkedHashMap<>();
        leaves(json, new ArrayList<>(), leaves);
        List<String> missing = new ArrayList<>();
        for (Row row : rows) {
            if (!row.conditional && leaves.keySet().stream().noneMatch(row::matches)) {
                missing.add(row.path);
            }
        }
        assertEquals(new ArrayList<String>(), missing, "documented " + name + " fields missing from the output\n" + output);
        List<String> wrong = new ArrayList<>();
        for (Map.Entry<List<String>, JsonNode> leaf : leaves.entrySet()) {
            String problem = typeProblem(leaf.getKey(), leaf.getValue(), others);
            if (problem != null) {
                wrong.add(String.join(".", leaf.getKey()) + ": " + problem);
            }
        }
        assertEquals(new ArrayList<String>(), wrong, "fields of the " + name + " output that " + DOC + " does not describe"
                + " as they are\n" + output);
    }

    /** Null when the value is documented and of its documented type, else what is wrong. */
    String typeProblem(List<String> leaf, JsonNode value, JsonSchemaTable... others) {
        // A row that names the field outranks one whose '*' covers it (jvms[].state before jvms[].*).
        Row row = rows.stream().filter(r -> r.matches(leaf)).min(java.util.Comparator.comparing(r -> r.path.contains("*")))
                .orElse(null);
        if (row == null) {
            return "not documented";
        }
        Matcher as = Pattern.compile("as `([^`]+)`").matcher(row.type);
        if (as.matches()) {
            List<String> under = new ArrayList<>();
            String target = as.group(1);
            JsonSchemaTable table = this;
            for (JsonSchemaTable other : others) {
                if (other.name.equals(target)) {
                    table = other;
                }
            }
            if (table == this) { // as `auto.*`: the same fields under another key
                under.addAll(java.util.Arrays.asList(target.substring(0, target.length() - 2).split("\\.")));
            }
            under.addAll(row.below(leaf));
            return table.typeProblem(under, value, others);
        }
        return ofType(row.type, value) ? null : "documented as " + row.type + ", is " + value.getNodeType() + " " + value;
    }

    /** string, boolean, integer, decimal or list of strings, a unit in parentheses, "or null". */
    static boolean ofType(String documented, JsonNode value) {
        String type = documented.replaceAll("\\s*\\([^)]*\\)", "").trim();
        boolean nullable = type.endsWith(" or null");
        type = nullable ? type.substring(0, type.length() - " or null".length()) : type;
        if (value.isNull()) {
            return nullable;
        }
        switch (type) {
            case "string":
                return value.isTextual();
            case "boolean":
                return value.isBoolean();
            case "integer":
                return value.isIntegralNumber();
            case "decimal":
                return value.isNumber();
            case "list of strings":
                for (JsonNode item : value) {
                    if (!item.isTextual()) {
                        return false;
                    }
                }
                return value.isArray();
            default:
                throw new AssertionError("a type the schema tables do not use: " + documented);
        }
    }
}
