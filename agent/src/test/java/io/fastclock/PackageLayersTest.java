package io.fastclock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The agent's packages are layers (README, "Layout"): each uses only the packages below it, so no
 * import points up and no two packages depend on each other, directly or round a loop. Read from the
 * sources: imports, and names written out in full in code (comments and string literals aside).
 */
class PackageLayersTest {
    /** Bottom first. entry stands apart: it uses no other package (the module is defined from it). */
    static final List<String> LAYERS = Arrays.asList(
            "runtime",   // the boot runtime: FastClock, the clock interfaces, the registry
            "config",    // the vocabulary: settings, backends' names, JDK scope, published state, the version
            "clock",     // the clocks: system, coarse (JNI), TSC, their native reads
            "jna",       // the JNA coarse clock, for when the native library cannot load
            "nativelib", // extracting and loading libfastclock, JNA as a module of its own
            "measure",   // timing the clocks and checking the TSC
            "rewrite",   // the bytecode rewriting of clock call sites
            "probe",     // reading the machine and measuring
            "decide",    // the decision: its rules and their reasons
            "observe",   // JFR events and the MBean
            "doctor",    // the doctor's report
            "attach",    // reaching another JVM: jdk.attach, or Byte Buddy's protocol over JNA or a java.nio socket
            "commands",  // java -jar fastclock.jar: attach, status, list, detach, the doctor
            "agent",     // start-up, the agent's state, detach
            "entry");    // the only class-path classes: checks the caller, defines the module

    private static final Path SOURCES = Paths.get("src/main/java/io/fastclock");
    private static final Pattern IMPORT = Pattern.compile("^import (?:static )?io\\.fastclock\\.([a-z]+)\\.", Pattern.MULTILINE);
    private static final Pattern QUALIFIED = Pattern.compile("\\bio\\.fastclock\\.([a-z]+)\\.[A-Za-z]");
    private static final Pattern COMMENTS_AND_STRINGS = Pattern.compile("/\\*.*?\\*/|//[^\\n]*|\"(?:\\\\.|[^\"\\\\])*\"", Pattern.DOTALL);

    @Test
    void everyPackageIsALayer() throws IOException {
        try (Stream<Path> dirs = Files.list(SOURCES)) {
            List<String> packages = dirs.filter(Files::isDirectory).map(p -> p.getFileName().toString()).sorted()
                    .collect(Collectors.toList());
            assertEquals(new TreeSet<>(LAYERS), new TreeSet<>(packages), "a package not in LAYERS, or a layer without a package");
        }
    }

    @Test
    void everyUsePointsDown() throws IOException {
        List<String> upward = new ArrayList<>();
        try (Stream<Path> files = Files.walk(SOURCES)) {
            for (Path file : files.filter(p -> p.toString().endsWith(".java")).collect(Collectors.toList())) {
                String from = SOURCES.relativize(file).getName(0).toString();
                String code = new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
                for (String to : used(code)) {
                    if (!to.equals(from) && LAYERS.indexOf(to) >= LAYERS.indexOf(from)) {
                        upward.add(SOURCES.relativize(file) + " uses " + to + " (" + from + " is below it, or beside it)");
                    }
                }
            }
        }
        assertTrue(upward.isEmpty(), String.join("\n", upward));
    }

    @Test
    void aUsePointingUpIsFound() {
        assertEquals(new TreeSet<>(Arrays.asList("agent", "probe")), used("package io.fastclock.clock;\n"
                + "import io.fastclock.probe.Decision;\n// io.fastclock.doctor.DoctorText in a comment\n"
                + "class X { String s = \"io.fastclock.commands.Commands\"; Object o = io.fastclock.agent.AgentState.READER; }\n"));
    }

    /** The fastclock packages a source file uses. */
    static TreeSet<String> used(String source) {
        TreeSet<String> used = new TreeSet<>();
        for (Matcher m = IMPORT.matcher(source); m.find(); ) {
            used.add(m.group(1));
        }
        String code = COMMENTS_AND_STRINGS.matcher(source).replaceAll(" ");
        code = code.replaceFirst("(?m)^package [^;]+;", "");
        for (Matcher m = QUALIFIED.matcher(code); m.find(); ) {
            used.add(m.group(1));
        }
        return used;
    }
}
