package io.fastclock.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * integration-tests/guest/guest-lab.sh from a test: whether a guest can be booted here (a visible
 * skip where not, a failure where -Dit.requireGuest=true), and one boot running one command.
 */
final class GuestLab {
    static final String REQUIRE_PROPERTY = "fastclock.it.requireGuest";
    /** -Dit.guestClocksources=hpet,tsc boots only those guests (a quicker check). */
    static final String CHOSEN_PROPERTY = "fastclock.it.guestClocksources";
    static final long BOOT_TIMEOUT_S = 900;

    private GuestLab() {}

    static Path script() {
        return Paths.get(System.getProperty("fastclock.guest.dir", "guest")).toAbsolutePath().resolve("guest-lab.sh");
    }

    /** Ends the test (skipped) where -Dit.guestClocksources names others only. */
    static void requireChosen(String clocksource) {
        if (!isChosen(clocksource)) {
            Assumptions.abort("[fastclock-it] guest " + clocksource + " not among -Dit.guestClocksources="
                    + System.getProperty(CHOSEN_PROPERTY, "").trim());
        }
    }

    /** Whether -Dit.guestClocksources is unset or names this guest. */
    static boolean isChosen(String clocksource) {
        String chosen = System.getProperty(CHOSEN_PROPERTY, "").trim();
        return chosen.isEmpty() || isNamed(clocksource);
    }

    /** Whether -Dit.guestClocksources names this guest. */
    static boolean isNamed(String clocksource) {
        return java.util.Arrays.asList(System.getProperty(CHOSEN_PROPERTY, "").trim().split(",")).contains(clocksource);
    }

    /** Ends the test (a skip) unless -Dit.guestClocksources names this guest. */
    static void requireNamed(String clocksource) {
        if (!isNamed(clocksource)) {
            Assumptions.abort("[fastclock-it] guest " + clocksource + " runs only when named: -Dit.guestClocksources=" + clocksource);
        }
    }

    /** Ends the test unless a guest can be booted: skipped with the lab's reason, or failed where required. */
    static void requireAvailable() throws IOException, InterruptedException {
        Boot check = run(Paths.get("target"), List.of("--check"));
        if (check.exitCode == 0) {
            return;
        }
        String why = "[fastclock-it] no guest lab here: " + check.stderr.trim();
        if (Boolean.parseBoolean(System.getProperty(REQUIRE_PROPERTY, ""))) {
            throw new AssertionError(why + " (-Dit.requireGuest=true requires it)");
        }
        System.err.println(why.replace("no guest lab here", "SKIPPED, no guest lab here"));
        Assumptions.abort(why);
    }

    /** Boots one guest with the given clocksource and CPU model, running command with its results in out. */
    static Boot boot(String clocksource, String cpu, Path out, List<String> command) throws IOException, InterruptedException {
        Files.createDirectories(out);
        List<String> args = new ArrayList<>(List.of("--clocksource", clocksource, "--cpu", cpu, "--out", out.toString(),
                "--timeout", Long.toString(BOOT_TIMEOUT_S), "--"));
        args.addAll(command);
        return run(out, args);
    }

    private static Boot run(Path dir, List<String> args) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        List<String> cmd = new ArrayList<>(List.of("bash", script().toString()));
        cmd.addAll(args);
        Path stdout = Files.createTempFile(dir, "guest-lab", ".out");
        Path stderr = Files.createTempFile(dir, "guest-lab", ".err");
        Process p = new ProcessBuilder(cmd).redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
        if (!p.waitFor(BOOT_TIMEOUT_S + 300, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("guest-lab.sh did not end: " + String.join(" ", cmd));
        }
        Boot boot = new Boot(cmd, p.exitValue(), read(stdout), read(stderr));
        Files.delete(stdout);
        Files.delete(stderr);
        return boot;
    }

    private static String read(Path p) throws IOException {
        return new String(Files.readAllBytes(p), StandardCharsets.UTF_8);
    }

    /** What one guest-lab.sh run did. */
    static final class Boot {
        final List<String> command;
        final int exitCode;
        final String stdout;
        final String stderr;

        Boot(List<String> command, int exitCode, String stdout, String stderr) {
            this.command = command;
            this.exitCode = exitCode;
            this.stdout = stdout;
            this.stderr = stderr;
        }

        /** Whether the guest ran under QEMU's pure emulation (not KVM): its kernel's tick then arrives late. */
        boolean emulated() {
            return labLines().contains("guest-lab: emulated");
        }

        /** The lab's own "guest-lab: ..." lines (how it ran, boot and command times). */
        String labLines() {
            StringBuilder lines = new StringBuilder();
            for (String line : stderr.split("\n")) {
                if (line.startsWith("guest-lab: ")) {
                    lines.append(line).append('\n');
                }
            }
            return lines.toString();
        }

        @Override
        public String toString() {
            return "command: " + String.join(" ", command) + "\nexit: " + exitCode + "\nstdout:\n" + stdout + "\nstderr:\n" + stderr;
        }
    }
}
