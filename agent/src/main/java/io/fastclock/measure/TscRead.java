package io.fastclock.measure;

import io.fastclock.clock.NativeClocks;
import io.fastclock.clock.TickSource;

/** The ways libfastclock reads the TSC, with the pseudo clock id that times each in C. */
public enum TscRead {
    RDTSCP("rdtscp", NativeClocks.PSEUDO_RDTSCP, true),
    LFENCE_RDTSC("lfence; rdtsc", NativeClocks.PSEUDO_LFENCE_RDTSC, true),
    MFENCE_RDTSC("mfence; rdtsc", NativeClocks.PSEUDO_MFENCE_RDTSC, true),
    /** Not ordered with earlier loads: currentTimeMillis only. */
    RDTSC("rdtsc (unordered)", NativeClocks.PSEUDO_RDTSC, false);

    public final String label;
    public final int pseudoClockId;
    public final boolean ordered;

    TscRead(String label, int pseudoClockId, boolean ordered) {
        this.label = label;
        this.pseudoClockId = pseudoClockId;
        this.ordered = ordered;
    }

    // if-chains, not switches: a switch on an enum compiles to a synthetic class more to load and
    // verify at start-up.
    public TickSource tickSource() {
        if (this == RDTSCP) {
            return TickSource.rdtscp();
        }
        if (this == LFENCE_RDTSC) {
            return TickSource.lfenceRdtsc();
        }
        if (this == MFENCE_RDTSC) {
            return TickSource.mfenceRdtsc();
        }
        return TickSource.unorderedRdtsc();
    }

    /**
     * Why this read waits for the loads before it on a CPU with these CPUID flags (see
     * {@link NativeClocks#tscFlags()}), or null if nothing documents that it does.
     * <ul>
     * <li>rdtscp: Intel SDM and AMD APM both say it waits until all previous instructions have
     *     executed and previous loads are globally visible.</li>
     * <li>lfence; rdtsc: Intel SDM: LFENCE does not execute until all prior instructions have
     *     completed locally. On AMD only where LFENCE is dispatch serialising: CPUID 0x80000021
     *     EAX[2], or MSR C001_1029[1] set by the kernel, which user space cannot read (the
     *     agent then does not offer it).</li>
     * <li>mfence; rdtsc: AMD only, what Linux used on AMD before LFENCE was made serialising there
     *     (X86_FEATURE_MFENCE_RDTSC).</li>
     * </ul>
     */
    public String orderedBecause(int cpuidFlags) {
        boolean intel = (cpuidFlags & NativeClocks.CPU_INTEL) != 0;
        boolean amd = (cpuidFlags & NativeClocks.CPU_AMD) != 0;
        if (this == RDTSCP) {
            return (cpuidFlags & NativeClocks.TSC_RDTSCP) != 0 ? "CPUID offers rdtscp, which waits for earlier loads" : null;
        }
        if (this == LFENCE_RDTSC) {
            if (intel) {
                return "Intel: LFENCE waits for every earlier instruction";
            }
            return amd && (cpuidFlags & NativeClocks.LFENCE_SERIALIZING) != 0
                    ? "AMD with CPUID 8000_0021 EAX[2]: LFENCE always serialising" : null;
        }
        if (this == MFENCE_RDTSC) {
            return amd ? "AMD: MFENCE orders RDTSC (Linux's MFENCE_RDTSC)" : null;
        }
        return null;
    }
}
