package io.fastclock.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MachineReaderTest {

    private static boolean anyProblemContains(MachineFacts f, String... parts) {
        for (String p : f.problems()) {
            boolean all = true;
            for (String part : parts) {
                all &= p.contains(part);
            }
            if (all) {
                return true;
            }
        }
        return false;
    }

    @Test
    void hpetWithHealthyTsc() {
        MachineFacts f = Fixtures.read("hpet-healthy-tsc");
        assertEquals("hpet", f.currentClocksource());
        assertEquals(Arrays.asList("tsc", "hpet", "acpi_pm"), f.availableClocksources());
        assertTrue(f.hasFlag("constant_tsc"));
        assertTrue(f.hasFlag("nonstop_tsc"));
        assertTrue(f.hasFlag("avx512f"));
        assertFalse(f.hasFlag("flags"));
        assertTrue(f.tscListedAvailable());
        assertTrue(f.clocksourceKnownSlow());
        assertTrue(f.isX86_64());
        assertEquals("5.15.0-105-generic", f.kernel());
        assertEquals("amd64", f.arch());
        assertEquals(Collections.emptyList(), f.problems());
    }

    @Test
    void hpetWithDemotedTsc() {
        MachineFacts f = Fixtures.read("hpet-tsc-demoted");
        assertEquals("hpet", f.currentClocksource());
        assertEquals(Arrays.asList("hpet", "acpi_pm"), f.availableClocksources());
        assertFalse(f.tscListedAvailable());
        assertTrue(f.availableClocksourcesKnown());
        assertTrue(f.clocksourceKnownSlow());
    }

    @Test
    void otherFixtureMachines() {
        MachineFacts xen = Fixtures.read("xen");
        assertEquals("xen", xen.currentClocksource());
        assertTrue(xen.clocksourceKnownSlow());
        assertTrue(xen.tscListedAvailable());

        MachineFacts acpi = Fixtures.read("acpi_pm");
        assertEquals("acpi_pm", acpi.currentClocksource());
        assertTrue(acpi.clocksourceKnownSlow());
        assertFalse(acpi.hasFlag("constant_tsc"));
        assertFalse(acpi.tscListedAvailable());

        MachineFacts tsc = Fixtures.read("tsc");
        assertEquals("tsc", tsc.currentClocksource());
        assertFalse(tsc.clocksourceKnownSlow());
        assertEquals(Collections.emptyList(), tsc.problems());

        MachineFacts noNonstop = Fixtures.read("no-nonstop-tsc");
        assertTrue(noNonstop.hasFlag("constant_tsc"));
        assertFalse(noNonstop.hasFlag("nonstop_tsc"));
    }

    @Test
    void armReadsFeatures() {
        MachineFacts f = Fixtures.read("arm64", "aarch64");
        assertEquals("arch_sys_counter", f.currentClocksource());
        assertTrue(f.hasFlag("asimd"));
        assertFalse(f.isX86_64());
        assertFalse(f.clocksourceKnownSlow());
        assertEquals(Collections.emptyList(), f.problems());
    }

    @Test
    void containerWithoutSys() {
        MachineFacts f = Fixtures.read("container-no-sys");
        assertNull(f.currentClocksource());
        assertFalse(f.availableClocksourcesKnown());
        assertFalse(f.tscListedAvailable());
        assertFalse(f.clocksourceKnownSlow());
        assertTrue(f.hasFlag("nonstop_tsc"));
        assertEquals("6.8.0-1015-aws", f.kernel());
        assertTrue(anyProblemContains(f, "cannot read ", "current_clocksource: NoSuchFileException"), f.problems().toString());
        assertTrue(anyProblemContains(f, "cannot read ", "available_clocksource: NoSuchFileException"), f.problems().toString());
        assertEquals(2, f.problems().size(), f.problems().toString());
    }

    @Test
    void garbageFilesAreProblemsNotFacts() {
        MachineFacts f = Fixtures.read("garbage");
        assertNull(f.currentClocksource());
        assertFalse(f.availableClocksourcesKnown());
        assertTrue(f.cpuFlags().isEmpty());
        assertEquals("0.0-fallback", f.kernel());
        assertTrue(anyProblemContains(f, "garbage in current_clocksource: "), f.problems().toString());
        assertTrue(anyProblemContains(f, "available_clocksource is empty"), f.problems().toString());
        assertTrue(anyProblemContains(f, "no flags line"), f.problems().toString());
        assertTrue(anyProblemContains(f, "garbage in osrelease"), f.problems().toString());
        assertTrue(anyProblemContains(f, "kernel release taken from os.version"), f.problems().toString());
        for (String p : f.problems()) {
            for (char c : p.toCharArray()) {
                assertTrue(c >= 0x20 && c < 0x7f, "printable ASCII only: " + p);
            }
        }
    }

    @Test
    void nothingAtAll(@TempDir Path tmp) {
        MachineFacts f = new MachineReader(tmp.resolve("nosys"), tmp.resolve("noproc"), null, null).read();
        assertNull(f.currentClocksource());
        assertNull(f.kernel());
        assertNull(f.arch());
        assertFalse(f.isX86_64());
        assertTrue(f.cpuFlags().isEmpty());
        assertEquals(4, f.problems().size(), f.problems().toString());
    }

    private static Path clocksourceDir(Path root) throws IOException {
        return Files.createDirectories(root.resolve("sys").resolve(MachineReader.CLOCKSOURCE_DIR));
    }

    @Test
    void directoryWhereAFileIsExpected(@TempDir Path tmp) throws IOException {
        // Tests run as root, so chmod 000 would not stop a read: a directory in place of the file does.
        Path cs = clocksourceDir(tmp);
        Files.createDirectories(cs.resolve("current_clocksource"));
        Files.write(cs.resolve("available_clocksource"), "tsc hpet\n".getBytes(StandardCharsets.US_ASCII));
        Files.createDirectories(tmp.resolve("proc/cpuinfo"));
        MachineFacts f = new MachineReader(tmp.resolve("sys"), tmp.resolve("proc"), "amd64", "x").read();
        assertNull(f.currentClocksource());
        assertEquals(Arrays.asList("tsc", "hpet"), f.availableClocksources());
        assertTrue(anyProblemContains(f, "current_clocksource: not a regular file"), f.problems().toString());
        assertTrue(anyProblemContains(f, "cpuinfo: not a regular file"), f.problems().toString());
    }

    @Test
    void fifoWhereAFileIsExpectedDoesNotBlock(@TempDir Path tmp) throws Exception {
        Path cs = clocksourceDir(tmp);
        Path fifo = cs.resolve("current_clocksource");
        Process p = new ProcessBuilder("mkfifo", fifo.toString()).start();
        if (p.waitFor() != 0) {
            return; // no mkfifo here; the directory test covers the same path
        }
        MachineFacts f = assertTimeoutPreemptively(Duration.ofSeconds(5),
                () -> new MachineReader(tmp.resolve("sys"), tmp.resolve("proc"), "amd64", "x").read());
        assertNull(f.currentClocksource());
        assertTrue(anyProblemContains(f, "current_clocksource: not a regular file"), f.problems().toString());
    }

    @Test
    void hugeFilesAreCutOff(@TempDir Path tmp) throws IOException {
        Path cs = clocksourceDir(tmp);
        StringBuilder sb = new StringBuilder();
        while (sb.length() <= MachineReader.SYSFS_CAP) {
            sb.append("tsc ");
        }
        Files.write(cs.resolve("available_clocksource"), sb.toString().getBytes(StandardCharsets.US_ASCII));
        Files.write(cs.resolve("current_clocksource"), "tsc\n".getBytes(StandardCharsets.US_ASCII));
        Path proc = Files.createDirectories(tmp.resolve("proc"));
        byte[] line = "model name : x\n".getBytes(StandardCharsets.US_ASCII);
        try (OutputStream out = Files.newOutputStream(proc.resolve("cpuinfo"))) {
            for (int written = 0; written <= MachineReader.CPUINFO_CAP + 1024; written += line.length) {
                out.write(line);
            }
            out.write("flags : constant_tsc nonstop_tsc\n".getBytes(StandardCharsets.US_ASCII));
        }
        MachineFacts f = new MachineReader(tmp.resolve("sys"), proc, "amd64", "x").read();
        assertEquals("tsc", f.currentClocksource());
        assertFalse(f.availableClocksourcesKnown());
        assertTrue(f.cpuFlags().isEmpty(), "flags past the 4 MiB cap are not read");
        assertTrue(anyProblemContains(f, "available_clocksource: larger than 64 KiB"), f.problems().toString());
        assertTrue(anyProblemContains(f, "no flags line in the first 4 MiB"), f.problems().toString());
    }

    @Test
    void onlyTheFirstProcessorsFlagsAreRead(@TempDir Path tmp) throws IOException {
        Path proc = Files.createDirectories(tmp.resolve("proc"));
        Files.write(proc.resolve("cpuinfo"), ("processor : 0\nflags : fpu tsc constant_tsc\n\n"
                + "processor : 1\nflags : fpu tsc constant_tsc nonstop_tsc\n").getBytes(StandardCharsets.US_ASCII));
        MachineFacts f = new MachineReader(tmp.resolve("sys"), proc, "x86_64", "x").read();
        assertTrue(f.isX86_64());
        assertTrue(f.hasFlag("constant_tsc"));
        assertFalse(f.hasFlag("nonstop_tsc"));
    }

    @Test
    void garbageInOneAvailableNameMakesTheListUnknown(@TempDir Path tmp) throws IOException {
        Path cs = clocksourceDir(tmp);
        Files.write(cs.resolve("available_clocksource"), "tsc h\u00e9pet\n".getBytes(StandardCharsets.UTF_8));
        Files.write(cs.resolve("current_clocksource"), "  HPET \n".getBytes(StandardCharsets.US_ASCII));
        Path proc = Files.createDirectories(tmp.resolve("proc"));
        Files.write(proc.resolve("cpuinfo"), "flags : constant_tsc \u0001\u0002 nonstop_tsc\n"
                .getBytes(StandardCharsets.US_ASCII));
        MachineFacts f = new MachineReader(tmp.resolve("sys"), proc, "amd64", "x").read();
        assertFalse(f.availableClocksourcesKnown());
        assertNull(f.currentClocksource(), "upper case is not a clocksource name");
        assertTrue(f.hasFlag("constant_tsc"));
        assertTrue(f.hasFlag("nonstop_tsc"));
        assertTrue(anyProblemContains(f, "garbage in available_clocksource"), f.problems().toString());
        assertTrue(anyProblemContains(f, "1 unreadable flag(s) ignored"), f.problems().toString());
    }

    @Test
    void factsAreImmutable() {
        MachineFacts f = Fixtures.read("tsc");
        List<String> available = f.availableClocksources();
        try {
            available.add("x");
        } catch (UnsupportedOperationException expected) {
            return;
        }
        throw new AssertionError("availableClocksources is modifiable");
    }

    @Test
    void theRealMachineNeverThrows() {
        MachineFacts f = new MachineReader(Paths.get("/sys"), Paths.get("/proc")).read();
        assertTrue(f.kernel() != null, f.toString());
        assertEquals(System.getProperty("os.arch"), f.arch());
    }
}
