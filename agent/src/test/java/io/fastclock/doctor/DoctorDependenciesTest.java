package io.fastclock.doctor;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The doctor measures and decides as the agent does, through the probe and the decision (probe.MachineProbe,
 * TscClockStarter, decide.JavaTimeCoverage): neither it (its report and its command, commands.DoctorCommand)
 * nor those name a class of the agent's start-up (io.fastclock.agent), which is the premain's
 * and changes the JVM.
 */
class DoctorDependenciesTest {
    @Test
    void theDoctorAndTheProbeNameNoAgentClass() throws IOException {
        List<String> found = new ArrayList<>();
        for (String pkg : new String[] {"doctor", "probe", "decide", "commands"}) {
            try (Stream<Path> files = Files.list(classes().resolve(pkg))) {
                for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".class")
                        && (!pkg.equals("commands") || p.getFileName().toString().startsWith("DoctorCommand")))::iterator) {
                    if (new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1).contains("io/fastclock/agent/")) {
                        found.add(pkg + "/" + f.getFileName());
                    }
                }
            }
        }
        assertTrue(found.isEmpty(), "these name io.fastclock.agent: " + found);
    }

    private static Path classes() {
        try {
            return Paths.get(DoctorFacts.class.getResource("DoctorFacts.class").toURI()).getParent().getParent();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
