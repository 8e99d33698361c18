package io.fastclock.examples;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.OutputStreamAppender;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logging through SLF4J and Logback, as most services do: each event is stamped by Logback
 * (through java.time) and formatted with a %d pattern, then written to a stream that discards the
 * bytes, so the clock and the formatting are what is measured, not a disk.
 */
final class LogbackWorkload implements Workload {

    static final String PATTERN = "%d{yyyy-MM-dd HH:mm:ss.SSS} [%thread] %-5level %logger{20} - %msg%n";
    private static final int BATCH = 20;
    /** Events logged once before the first run: Logback's first use is slow (class loading, JIT). */
    private static final int FIRST_USE_EVENTS = 50_000;

    private final LastLineStream stream = new LastLineStream();
    private Logger logger;

    @Override
    public String name() {
        return "logback events";
    }

    @Override
    public String operation() {
        return "log.info(\"order {} filled\", id) through SLF4J + Logback, pattern " + PATTERN.trim()
                + ", to a null stream";
    }

    @Override
    public Worker newWorker() {
        synchronized (this) {
            if (logger == null) {
                logger = configure(stream);
                for (int i = 0; i < FIRST_USE_EVENTS; i++) {
                    logger.info("order {} filled", -i);
                }
            }
        }
        return new Events(logger);
    }

    @Override
    public String detail(List<Worker> workers) {
        return "last: " + stream.lastLine();
    }

    /** Replaces Logback's default (console) set-up by one appender with PATTERN to the stream. */
    static Logger configure(OutputStream out) {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        context.reset();
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern(PATTERN);
        encoder.start();
        OutputStreamAppender<ILoggingEvent> appender = new OutputStreamAppender<>();
        appender.setContext(context);
        appender.setName("null");
        appender.setEncoder(encoder);
        appender.setOutputStream(out);
        appender.start();
        ch.qos.logback.classic.Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.INFO);
        root.addAppender(appender);
        return LoggerFactory.getLogger("io.fastclock.examples.Orders");
    }

    /**
     * Discards what is written, keeping only a reference to the last array (Logback writes each
     * event as one freshly encoded array), so the report can show a real line without copying.
     */
    static final class LastLineStream extends OutputStream {
        private volatile byte[] last = new byte[0];
        private volatile int lastOffset;
        private volatile int lastLength;

        @Override
        public void write(int b) {
            // single bytes are not events
        }

        @Override
        public void write(byte[] b, int off, int len) {
            lastOffset = off;
            lastLength = len;
            last = b;
        }

        String lastLine() {
            byte[] b = last;
            int off = Math.min(lastOffset, b.length);
            int len = Math.min(lastLength, b.length - off);
            return new String(b, off, len, StandardCharsets.UTF_8).trim();
        }
    }

    static final class Events implements Worker {
        private final Logger logger;
        private long events;

        Events(Logger logger) {
            this.logger = logger;
        }

        @Override
        public void runBatch() {
            for (int i = 0; i < BATCH; i++) {
                logger.info("order {} filled", events++);
            }
        }

        @Override
        public int batchSize() {
            return BATCH;
        }

        @Override
        public long sink() {
            return events;
        }
    }
}
