package io.fastclock.it;

import com.sun.jna.Function;
import com.sun.jna.NativeLibrary;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Assumptions;

/**
 * What this host offers that a test cannot feed the agent, for the tests whose expectation depends
 * on it (the others feed the machine they need: {@link Fixtures}).
 *
 * <p>The machine is read as an agent started without {@code sysfs}/{@code procfs} settings sees it:
 * through {@code FASTCLOCK_SYSFS} and {@code FASTCLOCK_PROCFS} when they are set (the agent reads
 * them as settings; integration-tests/slow-host-check.sh sets them to make every JVM of the suite see
 * an hpet machine), else {@code /sys} and {@code /proc}. So a test skips or adapts exactly where the
 * agent it starts would decide differently, on a real slow host (the hpet guest of the lab) and on a
 * simulated one alike.
 *
 * <p>What no file can stand in for: the CPU itself (the agent's CPUID, calibration and cross-CPU
 * checks run on the real TSC), and the kernel tick (clock_getres of CLOCK_REALTIME_COARSE).
 */
final class HostMachine {
    private static final int CLOCK_REALTIME_COARSE = 5;
    private static final long NANOS_PER_MILLI = 1_000_000L;

    private HostMachine() {}

    /** The directory the agent reads for /sys when no setting names one. */
    static Path sysfs() {
        return rootFromEnvironment("FASTCLOCK_SYSFS", "/sys");
    }

    /** The directory the agent reads for /proc when no setting names one. */
    static Path procfs() {
        return rootFromEnvironment("FASTCLOCK_PROCFS", "/proc");
    }

    private static Path rootFromEnvironment(String variable, String otherwise) {
        String value = System.getenv(variable);
        return Paths.get(value == null || value.isEmpty() ? otherwise : value);
    }

    /** current_clocksource as the agent sees it, or "unknown". */
    static String currentClocksource() {
        String s = read(sysfs().resolve("devices/system/clocksource/clocksource0/current_clocksource"));
        return s == null ? "unknown" : s.trim();
    }

    /** Whether the agent counts the clocksource as slow without measuring (the list is MachineFacts.KNOWN_SLOW_CLOCKSOURCES). */
    static boolean clocksourceKnownSlow() {
        return Arrays.asList("hpet", "acpi_pm", "xen", "jiffies", "refined-jiffies", "pit").contains(currentClocksource());
    }

    /**
     * Why the agent cannot have a TSC clock here, or null if nothing the kernel shows rules it out:
     * the CPU (see {@link #tscCpuProblem()}), and tsc still listed in available_clocksource (the
     * kernel drops it when its watchdog finds the TSC unstable, as in the hpet guest: "TSCs
     * unsynchronized").
     */
    static String tscUnusableReason() {
        String cpu = tscCpuProblem();
        if (cpu != null) {
            return cpu;
        }
        Path availablePath = sysfs().resolve("devices/system/clocksource/clocksource0/available_clocksource");
        String available = read(availablePath);
        if (available == null || !Arrays.asList(available.trim().split("\\s+")).contains("tsc")) {
            return "the kernel does not list tsc in " + availablePath + " (" + (available == null ? "unreadable" : available.trim()) + ")";
        }
        return null;
    }

    /**
     * Why this CPU offers no TSC the agent may use, or null: x86_64, with constant_tsc and
     * nonstop_tsc among the flags in cpuinfo. The kernel sets them from CPUID, so where they are
     * there the agent's own CPUID check (which no fixture can feed) agrees. For a test that feeds its
     * own sysfs (available_clocksource) but runs on the real CPU.
     */
    static String tscCpuProblem() {
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        if (!arch.equals("amd64") && !arch.equals("x86_64")) {
            return "this host is " + arch + ", and the TSC is used only on x86_64";
        }
        String cpuinfo = read(procfs().resolve("cpuinfo"));
        if (cpuinfo == null) {
            return procfs().resolve("cpuinfo") + " cannot be read";
        }
        List<String> flags = cpuFlags(cpuinfo);
        for (String flag : new String[] {"constant_tsc", "nonstop_tsc"}) {
            if (!flags.contains(flag)) {
                return "the CPU lacks " + flag + " (" + procfs().resolve("cpuinfo") + ")";
            }
        }
        return null;
    }

    /** Whether the agent can have a TSC clock here (see {@link #tscUnusableReason()}). */
    static boolean hasTscClock() {
        return tscUnusableReason() == null;
    }

    /**
     * Ends the test as skipped, saying why, where it is about the TSC clock and this host cannot
     * have one (the emulated hpet guest never can: no invariant TSC). The skip is visible in the
     * report and on stderr.
     */
    static void assumeTscClock(String what) {
        skipUnless(tscUnusableReason(), what);
    }

    /** {@link #assumeTscClock} for a test that feeds available_clocksource itself: only the CPU counts. */
    static void assumeTscCpu(String what) {
        skipUnless(tscCpuProblem(), what);
    }

    private static void skipUnless(String why, String what) {
        // ItSkips prints it in the build's log.
        Assumptions.assumeTrue(why == null, "[fastclock-it] SKIPPED: " + what + " needs a TSC clock, and this host has none: " + why);
    }

    /** clock_getres(CLOCK_REALTIME_COARSE): one kernel tick (4 ms at CONFIG_HZ=250, 1 ms at 1000). */
    static long coarseResolutionNs() {
        Function getres = NativeLibrary.getProcess().getFunction("clock_getres");
        long[] timespec = new long[2];
        int rc = getres.invokeInt(new Object[] {CLOCK_REALTIME_COARSE, timespec});
        if (rc != 0) {
            throw new IllegalStateException("clock_getres(CLOCK_REALTIME_COARSE) returned " + rc);
        }
        return timespec[0] * 1_000_000_000L + timespec[1];
    }

    /**
     * The currentTimeMillis backend that auto (when slow clocks activate it) and mode=on choose where
     * the TSC is usable: the coarse clock where the kernel ticks every millisecond or faster
     * (CONFIG_HZ=1000: it is cheaper and as fine as the 1 ms contract asks), else the TSC clock
     * (docs: DecisionMaker's millis rule). On this build machine the tick is 4 ms, so "tsc".
     */
    static String millisBackendWithTsc() {
        return coarseResolutionNs() <= NANOS_PER_MILLI ? "coarse" : "tsc";
    }

    /** "millis=tsc,nanos=tsc", or "millis=coarse,nanos=tsc" on a 1 ms tick (see {@link #millisBackendWithTsc()}). */
    static String backendsWithTsc() {
        return "millis=" + millisBackendWithTsc() + ",nanos=tsc";
    }

    /**
     * The backends an active agent (mode=on, or auto under the simulator) installs: exactly
     * {@link #backendsWithTsc()} where the host can have a TSC clock; elsewhere at least one clock
     * off the system clock (which one is the decision's business, not the calling test's).
     */
    static void assertActiveBackends(String backends, Object context) {
        // The cross-CPU check runs in every JVM: on a VM whose vCPUs' TSCs disagree by a few ticks now
        // and then (seen here: once in 484 tests, 4 ticks), it fails and the TSC is rightly not used
        // (activation.tsc-checks); the start line says so, and the run is judged like a host without one.
        boolean tscRefusedThisRun = String.valueOf(context).contains("TSC not used: the cross-CPU check failed: the TSC went backwards");
        if (hasTscClock() && !tscRefusedThisRun) {
            org.junit.jupiter.api.Assertions.assertEquals(backendsWithTsc(), backends, String.valueOf(context));
        } else {
            org.junit.jupiter.api.Assertions.assertFalse(ForkedJvm.onSystemBackends(backends),
                    "active, yet every clock on the system clock: " + backends + " (no TSC clock here: "
                            + tscUnusableReason() + ")\n" + context);
        }
    }

    private static String read(Path file) {
        try {
            return Files.isReadable(file) ? new String(Files.readAllBytes(file), StandardCharsets.UTF_8) : null;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<String> cpuFlags(String cpuinfo) {
        for (String line : cpuinfo.split("\n")) {
            if (line.startsWith("flags")) {
                int colon = line.indexOf(':');
                return Arrays.asList(line.substring(colon + 1).trim().split("\\s+"));
            }
        }
        return List.of();
    }
}
