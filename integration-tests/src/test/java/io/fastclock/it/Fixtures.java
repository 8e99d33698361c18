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
