package io.fastclock.probe;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What the probe learned about the machine from {@code /sys} and {@code /proc}, immutable.
 * Unknown things are null or empty, and {@link #problems()} says why.
 */
public final class MachineFacts {

    /** Clocksources whose reads have no vDSO fast path (or tick only once per kernel tick). */
    public static final Set<String> KNOWN_SLOW_CLOCKSOURCES = Collections.unmodifiableSet(new LinkedHashSet<>(
            Arrays.asList("hpet", "acpi_pm", "xen", "jiffies", "refined-jiffies", "pit")));

    private final String kernel;
    private final String currentClocksource;
    private final List<String> availableClocksources;
    private final Set<String> cpuFlags;
    private final String arch;
    private final List<String> problems;

    /**
     * @param kernel                kernel release, or null if unknown
     * @param currentClocksource    active clocksource, or null if unknown
     * @param availableClocksources available clocksources; empty if unknown
     * @param cpuFlags              the first processor's flags; empty if unknown
     * @param arch                  {@code os.arch}, or null if unknown
     * @param problems              human lines saying what could not be read and why
     */
    public MachineFacts(String kernel, String currentClocksource, Collection<String> availableClocksources,
                        Collection<String> cpuFlags, String arch, Collection<String> problems) {
        this.kernel = kernel;
        this.currentClocksource = currentClocksource;
        this.availableClocksources = Collections.unmodifiableList(
                new ArrayList<>(availableClocksources == null ? Collections.<String>emptyList() : availableClocksources));
        this.cpuFlags = Collections.unmodifiableSet(
                new LinkedHashSet<>(cpuFlags == null ? Collections.<String>emptySet() : cpuFlags));
        this.arch = arch;
        this.problems = Collections.unmodifiableList(
                new ArrayList<>(problems == null ? Collections.<String>emptyList() : problems));
    }

    /** Kernel release ({@code uname -r}), or null if unknown. */
    public String kernel() {
        return kernel;
    }

    /** The active clocksource, or null if unknown. */
    public String currentClocksource() {
        return currentClocksource;
    }

    /** The clocksources the kernel lists as available; empty if they could not be read. */
    public List<String> availableClocksources() {
        return availableClocksources;
    }

    /** Whether available_clocksource was read (a kernel always lists at least one source). */
    public boolean availableClocksourcesKnown() {
        return !availableClocksources.isEmpty();
    }

    /** The first processor's flags ({@code flags} on x86, {@code Features} on arm); empty if unknown. */
    public Set<String> cpuFlags() {
        return cpuFlags;
    }

    /** {@code os.arch}, or null if unknown. */
    public String arch() {
        return arch;
    }

    /** What could not be read or made sense of, one human line each. */
    public List<String> problems() {
        return problems;
    }

    public boolean hasFlag(String flag) {
        return cpuFlags.contains(flag);
    }

    /** Whether {@code tsc} is still listed in available_clocksource. */
    public boolean tscListedAvailable() {
        return availableClocksources.contains("tsc");
    }

    /** Whether the active clocksource is one whose fine reads are known to be slow. */
    public boolean clocksourceKnownSlow() {
        return currentClocksource != null && KNOWN_SLOW_CLOCKSOURCES.contains(currentClocksource);
    }

    public boolean isX86_64() {
        return "amd64".equals(arch) || "x86_64".equals(arch);
    }

    /** The clocksource for messages: its name, or "unknown". */
    public String clocksourceForDisplay() {
        return currentClocksource == null ? "unknown" : currentClocksource;
    }

    @Override
    public String toString() {
        return "MachineFacts{kernel=" + kernel + ", clocksource=" + currentClocksource + ", available="
                + availableClocksources + ", arch=" + arch + ", " + cpuFlags.size() + " cpu flags, problems="
                + problems + "}";
    }
}
