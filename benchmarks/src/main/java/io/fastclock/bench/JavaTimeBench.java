package io.fastclock.bench;

import java.time.Clock;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.concurrent.TimeUnit;

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
 * java.time's clock reads, which end inside the JDK (Clock.currentInstant, VM.getNanoTimeAdjustment):
 * run once without the agent and once with it (run.sh: -p agent=fastclock and -javaagent).
 */
@BenchmarkMode({Mode.AverageTime, Mode.Throughput})
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Benchmark)
public class JavaTimeBench {
    @Param({"none"})
    public String agent;

    private final Clock utc = Clock.systemUTC();

    @Setup(Level.Trial)
    public void check() {
        AgentSetup.check(agent);
    }

    @Benchmark
    public Instant instantNow() {
        return Instant.now();
    }

    @Benchmark
    public long clockMillis() {
        return utc.millis();
    }

    @Benchmark
    public LocalDateTime localDateTimeNow() {
        return LocalDateTime.now();
    }
}
