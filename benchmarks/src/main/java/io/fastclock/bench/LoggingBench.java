package io.fastclock.bench;

import java.io.OutputStream;
import java.util.concurrent.TimeUnit;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import ch.qos.logback.core.OutputStreamAppender;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.Logger;
import org.apache.logging.log4j.core.appender.OutputStreamAppender.Builder;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.config.builder.api.ConfigurationBuilderFactory;
import org.apache.logging.log4j.core.layout.PatternLayout;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One log event through Logback and through Log4j2, each with a pattern that prints the date, to a
 * stream that discards the bytes: the clock read per event (both stamp events through java.time)
 * plus formatting. Configured in code, so no configuration file of either is looked up.
 */
@BenchmarkMode({Mode.AverageTime, Mode.Throughput})
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Dlog4j2.statusLoggerLevel=OFF"})
@State(Scope.Benchmark)
public class LoggingBench {
    static final String PATTERN = "%d{yyyy-MM-dd HH:mm:ss.SSS} [%thread] %-5level %logger - %msg%n";

    @Param({"none"})
    public String agent;

    private LoggerContext logbackContext;
    private org.slf4j.Logger logback;
    private org.apache.logging.log4j.core.LoggerContext log4jContext;
    private Logger log4j;

    /** Discards the bytes, counting them: the set-up checks that an event really reached it. */
    static final class CountingNullStream extends OutputStream {
        long bytes;

        @Override
        public void write(int b) {
            bytes++;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            bytes += len;
        }
    }

    private final CountingNullStream logbackOut = new CountingNullStream();
    private final CountingNullStream log4jOut = new CountingNullStream();

    @Setup
    public void setUp() {
        AgentSetup.check(agent);
        logbackContext = new LoggerContext();
        logbackContext.setMDCAdapter(new LogbackMDCAdapter());
        logbackContext.start();
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(logbackContext);
        encoder.setPattern(PATTERN);
        encoder.start();
        OutputStreamAppender<ILoggingEvent> appender = new OutputStreamAppender<>();
        appender.setContext(logbackContext);
        appender.setEncoder(encoder);
        appender.setOutputStream(logbackOut);
        appender.start();
        ch.qos.logback.classic.Logger lb = logbackContext.getLogger("bench");
        lb.setAdditive(false);
        lb.setLevel(ch.qos.logback.classic.Level.INFO);
        lb.addAppender(appender);
        logback = lb;

        log4jContext = new org.apache.logging.log4j.core.LoggerContext("bench");
        log4jContext.start(ConfigurationBuilderFactory.newConfigurationBuilder().build(false));
        Configuration config = log4jContext.getConfiguration();
        PatternLayout layout = PatternLayout.newBuilder().withConfiguration(config).withPattern(PATTERN).build();
        org.apache.logging.log4j.core.appender.OutputStreamAppender out = new Builder<>()
                .setName("null").setLayout(layout).setTarget(log4jOut).setConfiguration(config).build();
        out.start();
        config.addAppender(out);
        LoggerConfig lc = new LoggerConfig("bench", Level.INFO, false);
        lc.addAppender(out, Level.INFO, null);
        config.addLogger("bench", lc);
        log4jContext.updateLoggers();
        log4j = log4jContext.getLogger("bench");

        logbackEvent();
        log4j2Event();
        if (logbackOut.bytes == 0 || log4jOut.bytes == 0) {
            throw new IllegalStateException("an event did not reach its stream: logback " + logbackOut.bytes
                    + " bytes, log4j2 " + log4jOut.bytes + " bytes");
        }
    }

    @TearDown
    public void tearDown() {
        logbackContext.stop();
        log4jContext.stop();
    }

    @Benchmark
    public void logbackEvent() {
        logback.info("request {} done", 42);
    }

    @Benchmark
    public void log4j2Event() {
        log4j.info("request {} done", 42);
    }
}
