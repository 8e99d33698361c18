package io.fastclock.clock;

/**
 * The JNI functions of libfastclock. Loaded either into the bootstrap loader by the agent
 * ({@link #markLoaded()}) or by {@link #load(String)} for the doctor and benchmarks.
 */
public final class NativeClocks {
    /** Linux clock ids, as in time.h. */
    public static final int CLOCK_REALTIME = 0;
    public static final int CLOCK_MONOTONIC = 1;
    public static final int CLOCK_REALTIME_COARSE = 5;
    public static final int CLOCK_MONOTONIC_COARSE = 6;
    /** Pseudo clock ids understood by {@link #timeCalls(int, long)}. */
    public static final int PSEUDO_RDTSCP = -101;
    public static final int PSEUDO_LFENCE_RDTSC = -102;
    public static final int PSEUDO_GETTIMEOFDAY = -103;
    public static final int PSEUDO_RDTSC = -104;
    public static final int PSEUDO_MFENCE_RDTSC = -105;

    /** Bits of {@link #tscFlags()}. */
    public static final int TSC_PRESENT = 1;
    public static final int TSC_INVARIANT = 2;
    public static final int TSC_RDTSCP = 4;
    public static final int TSC_HYPERVISOR = 8;
    public static final int CPU_INTEL = 16;
    /** AuthenticAMD or HygonGenuine. */
    public static final int CPU_AMD = 32;
    /** AMD: CPUID 0x80000021 EAX bit 2, LFENCE always dispatch serialising. */
    public static final int LFENCE_SERIALIZING = 64;

    private static volatile boolean loaded;

    private NativeClocks() {}

    /** Loads the library with System.load, associating it with this class's loader. */
    public static void load(String absolutePath) {
        System.load(absolutePath);
        markLoaded();
    }

    /** Checks that the functions link (whoever loaded the library) and remembers it. */
    public static void markLoaded() {
        clockGetres(CLOCK_REALTIME_COARSE); // throws UnsatisfiedLinkError if not linked
        loaded = true;
    }

    public static boolean isLoaded() {
        return loaded;
    }

    public static native long realtimeCoarseMillis();

    public static native long monotonicCoarseNanos();

    public static native long rdtscp();

    public static native long lfenceRdtsc();

    /** AMD's ordered read where LFENCE is not known to serialise. */
    public static native long mfenceRdtsc();

    /** Unordered: for currentTimeMillis only (no ordering clause, 1 ms budget). */
    public static native long rdtsc();

    /** Does nothing: the cost of the JNI transition alone. */
    public static native long noop();

    public static native int tscFlags();

    public static native boolean isX86();

    /** Resolution in ns, or a negative errno. */
    public static native long clockGetres(int clockId);

    /** Current value in ns, or a negative errno. */
    public static native long clockGettime(int clockId);

    /** Total ns spent on n calls of the clock, timed in C, or a negative errno. */
    public static native long timeCalls(int clockId, long n);

    /**
     * Narrowest-window sample of (TSC, CLOCK_MONOTONIC, window ticks, CLOCK_REALTIME) into out[0..3].
     * Returns 0 or a negative errno.
     */
    public static native int sampleTsc(int tries, long[] out);

    /**
     * Cross-CPU TSC check, stopped once softNanos have passed and every CPU has taken part in
     * minHandoversPerCpu handovers (a read right after another CPU's), or at hardNanos whatever they
     * have done: out = {cpus, reads, backward steps, worst step ticks, 1 if stopped before every CPU
     * made readsPerCpu reads, fewest handovers one CPU took part in}. Returns 0 when it ran, or a
     * negative errno.
     */
    public static native int crossCpuTscCheckBounded(int readsPerCpu, int minHandoversPerCpu, long softNanos,
            long hardNanos, long[] out);
}
