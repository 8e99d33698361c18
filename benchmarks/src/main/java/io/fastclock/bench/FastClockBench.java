package io.fastclock.bench;

import java.util.concurrent.TimeUnit;

import io.fastclock.boot.InstalledClocks;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * fastclock's clocks as a switched FastClock calls them (InstalledClocks: the backends in static
 * finals), with one backend per fork; rewritten call sites add FastClock's one inlined call, which
 * SystemClockBench measures with the agent.
 * "coarse" nanos is CLOCK_MONOTONIC_COARSE (one kernel tick of resolution): the agent never picks it
 * for nanoTime unless asked by name; it is here for completeness. "jna-coarse" is the agent's fallback
 * where libfastclock cannot load: CLOCK_REALTIME_COARSE through JNA for millis, and the system clock
 * for nanos (so its nanoTime is "system" again; run.sh leaves that pair out).
 */
@BenchmarkMode({Mode.AverageTime, Mode.Throughput})
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Benchmark)
public class FastClockBench {
    @Param({"system", "coarse", "tsc", "jna-coarse"})
    public String backend;

    @Setup(Level.Trial)
    public void install() {
        Backends.install(backend);
    }

    @Benchmark
    public long currentTimeMillis() {
        return InstalledClocks.currentTimeMillis();
    }

    @Benchmark
    public long nanoTime() {
        return InstalledClocks.nanoTime();
    }
}
