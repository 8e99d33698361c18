package io.fastclock.bench;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import net.openhft.ticker.Ticker;
import org.agrona.concurrent.CachedEpochClock;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.EpochNanoClock;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.OffsetEpochNanoClock;
import org.agrona.concurrent.SystemEpochClock;
import org.agrona.concurrent.SystemNanoClock;
import org.apache.logging.log4j.core.util.CachedClock;
import org.apache.logging.log4j.core.util.Clock;
import org.apache.logging.log4j.core.util.CoarseCachedClock;
import org.apache.logging.log4j.core.util.SystemClock;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Peer libraries, used the way their users use them. What each gives up is in the report's
 * semantics table (ReportGenerator.SEMANTICS).
 * <ul>
 * <li>Log4j2: SystemClock, CachedClock and CoarseCachedClock are what the log4j.Clock property
 *     selects. Both cached ones are singletons with a daemon thread that stores
 *     System.currentTimeMillis() into a volatile field and parks 1 ms; CachedClock also counts calls in
 *     a plain shared field and re-reads the system clock itself every 1000 calls.</li>
 * <li>Agrona: SystemEpochClock/SystemNanoClock delegate to the JDK; OffsetEpochNanoClock is
 *     System.nanoTime plus a calibrated offset; CachedEpochClock is a field that someone else must
 *     update (Aeron's conductor does it on every duty cycle, about every 1 ms): the updater thread
 *     below plays that role.</li>
 * <li>OpenHFT affinity: Ticker uses JNIClock (rdtsc) only if its native library (libCEInternals, part of
 *     the commercial Chronicle Enterprise) loads; otherwise it falls back to System.nanoTime. run.sh
 *     builds a stand-in (src/main/c/ceinternals_standin.c) and puts it on java.library.path.
 *     {@link #tickerImpl()} names the implementation picked; the report prints it.</li>
 * </ul>
 */
@BenchmarkMode({Mode.AverageTime, Mode.Throughput})
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Benchmark)
public class PeerClockBench {
    private Clock log4jSystem;
    private Clock log4jCached;
    private Clock log4jCoarseCached;
    private EpochClock agronaSystemEpoch;
    private NanoClock agronaSystemNano;
    private EpochNanoClock agronaOffsetEpochNano;
    private CachedEpochClock agronaCachedEpoch;
    private Thread agronaUpdater;
    private volatile boolean running;

    public static String tickerImpl() {
        return Ticker.INSTANCE.getClass().getName();
    }

    @Setup(Level.Trial)
    public void setUp() {
        log4jSystem = new SystemClock();
        log4jCached = CachedClock.instance();
        log4jCoarseCached = CoarseCachedClock.instance();
        agronaSystemEpoch = SystemEpochClock.INSTANCE;
        agronaSystemNano = SystemNanoClock.INSTANCE;
        agronaOffsetEpochNano = new OffsetEpochNanoClock();
        agronaCachedEpoch = new CachedEpochClock();
        agronaCachedEpoch.update(System.currentTimeMillis());
        running = true;
        agronaUpdater = new Thread(() -> {
            while (running) {
                agronaCachedEpoch.update(System.currentTimeMillis());
                LockSupport.parkNanos(1_000_000L);
            }
        }, "agrona-cached-epoch-updater");
        agronaUpdater.setDaemon(true);
        agronaUpdater.start();
        // Touch the ticker outside the measured region (class init loads or fails to load its JNI lib).
        Ticker.ticks();
        System.err.println("fastclock-bench: net.openhft.ticker.Ticker uses " + tickerImpl());
    }

    @TearDown(Level.Trial)
    public void tearDown() throws InterruptedException {
        running = false;
        agronaUpdater.join(1000);
    }

    @Benchmark
    public long log4jSystemClock() {
        return log4jSystem.currentTimeMillis();
    }

    @Benchmark
    public long log4jCachedClock() {
        return log4jCached.currentTimeMillis();
    }

    @Benchmark
    public long log4jCoarseCachedClock() {
        return log4jCoarseCached.currentTimeMillis();
    }

    @Benchmark
    public long agronaSystemEpochClock() {
        return agronaSystemEpoch.time();
    }

    @Benchmark
    public long agronaSystemNanoClock() {
        return agronaSystemNano.nanoTime();
    }

    @Benchmark
    public long agronaOffsetEpochNanoClock() {
        return agronaOffsetEpochNano.nanoTime();
    }

    @Benchmark
    public long agronaCachedEpochClock() {
        return agronaCachedEpoch.time();
    }

    @Benchmark
    public long openhftTickerTicks() {
        return Ticker.ticks();
    }

    @Benchmark
    public long openhftTickerNanoTime() {
        return Ticker.nanoTime();
    }
}
