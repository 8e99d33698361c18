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
 * The agent's packages are layers (docs/DESIGN-NOTES.md, "Layout"): each uses only the packages below it, so no
 * import points up and no two packages depend on each other, directly or round a loop. Read from the
 * sources: imports, and names written out in full in code (comments and string literals aside).
 */
class PackageLayersTest {
    /** Bottom first. entry stands apart: it uses no other package (the module is defined from it). */
    static final List<String> LAYERS = Arrays.asList(
            "runtime",   // the boot runtime's API: FastClock and the clock types (src/main/java-internal)
            "rewrite",   // the bytecode rewriting of clock call sites: the boot runtime's transformer
            "boot",      // the boot runtime's switch, registry and start: exported to the agent's module alone
            "config",    // the vocabulary: settings, backends' names, JDK scope, published state, the version
            "clock",     // the clocks: system, coarse (JNI), TSC, their native reads
            "jna",       // the JNA coarse clock, for when the native library cannot load
            "nativelib", // extracting and loading libfastclock, JNA as a module of its own
            "measure",   // timing the clocks and checking the TSC
            "asm",       // the rewrite with ASM, for the rare class the constant-pool rewrite cannot take
            "probe",     // reading the machine and measuring
            "decide",    // the decision: its rules and their reasons
            "observe",   // JFR events and the MBean
            "doctor",    // the doctor's report
            "attach",    // reaching another JVM: jdk.attach, or Byte Buddy's protocol over JNA or a java.nio socket
            "commands",  // java -jar fastclock.jar: attach, status, list, detach, the doctor
            "agent",     // start-up, the agent's state, detach
            "entry");    // the only class-path classes: checks the caller, defines the module

    /** The sources, and those compiled apart with the JDK's internal packages in view. */
    private static final List<Path> SOURCE_ROOTS = Arrays.asList(Paths.get("src/main/java/io/fastclock"),
            Paths.get("src/main/java-internal/io/fastclock"));
    private static final Pattern IMPORT = Pattern.compile("^import (?:static )?io\\.fastclock\\.([a-z]+)\\.", Pattern.MULTILINE);
    private static final Pattern QUALIFIED = Pattern.compile("\\bio\\.fastclock\\.([a-z]+)\\.[A-Za-z]");
    private static final Pattern COMMENTS_AND_STRINGS = Pattern.compile("/\\*.*?\\*/|//[^\\n]*|\"(?:\\\\.|[^\"\\\\])*\"", Pattern.DOTALL);

    @Test
    void everyPackageIsALayer() throws IOException {
        TreeSet<String> packages = new TreeSet<>();
        for (Path root : SOURCE_ROOTS) {
            try (Stream<Path> dirs = Files.list(root)) {
                dirs.filter(Files::isDirectory).map(p -> p.getFileName().toString()).forEach(packages::add);
            }
        }
        assertEquals(new TreeSet<>(LAYERS), packages, "a package not in LAYERS, or a layer without a package");
    }

    @Test
    void everyUsePointsDown() throws IOException {
        List<String> upward = new ArrayList<>();
        for (Path root : SOURCE_ROOTS) {
            try (Stream<Path> files = Files.walk(root)) {
                for (Path file : files.filter(p -> p.toString().endsWith(".java")).collect(Collectors.toList())) {
                    String from = root.relativize(file).getName(0).toString();
                    String code = new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
                    for (String to : used(code)) {
                        if (!to.equals(from) && LAYERS.indexOf(to) >= LAYERS.indexOf(from)) {
                            upward.add(root.relativize(file) + " uses " + to + " (" + from + " is below it, or beside it)");
                        }
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
