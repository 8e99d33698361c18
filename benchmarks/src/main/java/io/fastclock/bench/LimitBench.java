package io.fastclock.bench;

import java.util.concurrent.TimeUnit;

import io.fastclock.clock.NativeClocks;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The limit fastclock's reads are measured against: a JNI call that does nothing (the transition
 * alone) and each TSC read and the coarse clock through the same JNI entry points, no clock logic.
 * mfence; rdtsc runs everywhere but is only used on AMD; rdtsc (unordered) serves millis only.
 */
@BenchmarkMode({Mode.AverageTime, Mode.Throughput})
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Benchmark)
public class LimitBench {
    @Setup(Level.Trial)
    public void load() {
        Backends.loadNative();
    }

    @Benchmark
    public long jniNoop() {
        return NativeClocks.noop();
    }

    @Benchmark
    public long jniRdtscp() {
        return NativeClocks.rdtscp();
    }

    @Benchmark
    public long jniLfenceRdtsc() {
        return NativeClocks.lfenceRdtsc();
    }

    @Benchmark
    public long jniMfenceRdtsc() {
        return NativeClocks.mfenceRdtsc();
    }

    @Benchmark
    public long jniRdtsc() {
        return NativeClocks.rdtsc();
    }

    @Benchmark
    public long jniRealtimeCoarse() {
        return NativeClocks.realtimeCoarseMillis();
    }
}
