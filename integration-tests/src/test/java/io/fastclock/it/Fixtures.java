package io.fastclock.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** The machines the agent's unit tests describe as files (agent/src/test/resources/fixtures). */
final class Fixtures {
    private Fixtures() {}

    /** The fixture's root, holding proc/ and sys/. */
    static Path machine(String name) {
        Path dir = Paths.get("..", "agent", "src", "test", "resources", "fixtures", name).toAbsolutePath().normalize();
        if (!Files.isDirectory(dir)) {
            throw new IllegalStateException("no fixture machine " + dir);
        }
        return dir;
    }

    /** A copy of the fixture under root, for a test to change. */
    static Path copy(String name, Path root) throws IOException {
        Path fixture = machine(name);
        try (Stream<Path> walk = Files.walk(fixture)) {
            for (Path p : walk.collect(Collectors.toList())) {
                Path target = root.resolve(fixture.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target);
                }
            }
        }
        return root;
    }

    /** The agent settings that point the probe at a machine: "sysfs=...,procfs=...". */
    static String settings(Path machine) {
        return "sysfs=" + machine.resolve("sys") + ",procfs=" + machine.resolve("proc");
    }

    /** The largest threshold the agent accepts (Settings.MAX_THRESHOLD_NS): 1 ms a call. */
    static final long MAX_THRESHOLD_NS = 1_000_000;

    /**
     * Agent settings that describe a machine whose system clocks are fast, whatever host runs the
     * test: the tsc fixture (clocksource tsc, a trusted TSC) and a threshold of 1 ms a call, far above
     * what any clocksource costs (an emulated hpet: about 18 us). Under them auto must stay inactive;
     * a test that expects "inactive" feeds these rather than rely on the host's clocks being fast,
     * which they are not on the machines fastclock is for (hpet, acpi_pm, a TSC the kernel dropped).
     */
    static String fastMachine() {
        return settings(machine("tsc")) + ",threshold=" + MAX_THRESHOLD_NS;
    }

    /** The machine's cpuinfo with one CPU flag removed from every "flags" line. */
    static void removeCpuFlag(Path machine, String flag) throws IOException {
        Path cpuinfo = machine.resolve("proc").resolve("cpuinfo");
        List<String> lines = Files.readAllLines(cpuinfo);
        List<String> changed = lines.stream()
                .map(l -> l.startsWith("flags") ? (l + " ").replace(" " + flag + " ", " ").trim() : l)
                .collect(Collectors.toList());
        if (changed.equals(lines)) {
            throw new IllegalStateException(cpuinfo + " has no " + flag + " to remove");
        }
        Files.write(cpuinfo, changed);
    }
}
