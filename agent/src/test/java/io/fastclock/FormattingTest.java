package io.fastclock;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The repository's Java follows its one formatting configuration (.editorconfig): spaces only, four
 * to a level (a comment's " *" line one more), no trailing whitespace, a final newline. Read from every
 * module's sources, this one's included.
 */
class FormattingTest {
    private static final Path ROOT = Paths.get("..");
    private static final String[] SOURCES = {"agent/src", "integration-tests/src", "examples/src", "benchmarks/src", "benchmarks/premain-floor"};

    @Test
    void everyJavaFileFollowsTheEditorConfig() throws IOException {
        List<String> problems = new ArrayList<>();
        for (String dir : SOURCES) {
            Path base = ROOT.resolve(dir);
            if (!Files.isDirectory(base)) {
                continue;
            }
            try (Stream<Path> files = Files.walk(base)) {
                for (Path file : files.filter(p -> p.toString().endsWith(".java")).collect(Collectors.toList())) {
                    check(file, problems);
                }
            }
        }
        assertEquals(new ArrayList<String>(), problems.subList(0, Math.min(problems.size(), 20)),
                problems.size() + " formatting problems; the first ones");
    }

    private static void check(Path file, List<String> problems) throws IOException {
        String text = new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
        if (!text.isEmpty() && !text.endsWith("\n")) {
            problems.add(file + ": no final newline");
        }
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            String where = file + ":" + (i + 1);
            if (line.indexOf('\t') >= 0 || line.indexOf('\r') >= 0) {
                problems.add(where + ": a tab or a carriage return");
            }
            if (!line.isEmpty() && Character.isWhitespace(line.charAt(line.length() - 1))) {
                problems.add(where + ": trailing whitespace");
            }
            int indent = 0;
            while (indent < line.length() && line.charAt(indent) == ' ') {
                indent++;
            }
            boolean javadoc = indent < line.length() && line.charAt(indent) == '*' && indent % 4 == 1;
            if (indent < line.length() && indent % 4 != 0 && !javadoc) {
                problems.add(where + ": indented by " + indent + " spaces");
            }
        }
    }
}
