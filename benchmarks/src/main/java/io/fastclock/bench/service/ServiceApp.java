package io.fastclock.bench.service;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import ch.qos.logback.core.OutputStreamAppender;
import com.codahale.metrics.MetricRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.undertow.Undertow;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A small real service, as a user of fastclock runs one: Undertow serving HTTP, and on every request
 * what production code does with the clocks, through the libraries that do it: a Micrometer timer and
 * a Dropwizard timer around the handling (System.nanoTime; Micrometer's clock also reads
 * currentTimeMillis for its windows) and a Logback access line with its date (Logback stamps events
 * through java.time). The log goes to a stream that drops the bytes, so the disk is not measured.
 *
 * <p>args: PORT STOP_FILE. Prints "ready" once it serves; stops when STOP_FILE exists, printing
 * "requests=N" (every request served, warm-up included), so that the simulator's count of slow reads,
 * written at exit, can be divided by it. Run by benchmarks/service-bench.py.
 */
public final class ServiceApp {
    static final String PATTERN = "%d{yyyy-MM-dd HH:mm:ss.SSS} [%thread] %-5level %logger - %msg%n";

    public static void main(String[] args) throws Exception {
        // The libraries' own logging (no logback.xml: Logback's default prints DEBUG to stdout) kept to warnings.
        ((ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME))
                .setLevel(ch.qos.logback.classic.Level.WARN);
        int port = Integer.parseInt(args[0]);
        Path stop = Paths.get(args[1]);
        SimpleMeterRegistry micrometer = new SimpleMeterRegistry();
        Timer micrometerTimer = Timer.builder("http.server.requests").tag("uri", "/").register(micrometer);
        MetricRegistry dropwizard = new MetricRegistry();
        com.codahale.metrics.Timer dropwizardTimer = dropwizard.timer("requests");
        org.slf4j.Logger access = accessLog();
        AtomicLong requests = new AtomicLong();
        byte[] body = "ok\n".getBytes();

        HttpHandler handler = new HttpHandler() {
            @Override
            public void handleRequest(HttpServerExchange exchange) {
                if (exchange.isInIoThread()) {
                    exchange.dispatch(this);
                    return;
                }
                long start = System.nanoTime();
                try (com.codahale.metrics.Timer.Context ignored = dropwizardTimer.time()) {
                    exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "text/plain");
                    exchange.getResponseSender().send(java.nio.ByteBuffer.wrap(body));
                    access.info("{} {} 200", exchange.getRequestMethod(), exchange.getRequestPath());
                } finally {
                    micrometerTimer.record(System.nanoTime() - start, java.util.concurrent.TimeUnit.NANOSECONDS);
                    requests.incrementAndGet();
                }
            }
        };
        Undertow server = Undertow.builder().addHttpListener(port, "127.0.0.1").setHandler(handler).build();
        server.start();
        System.out.println("ready");
        while (!Files.exists(stop)) {
            Thread.sleep(50);
        }
        server.stop();
        System.out.println("requests=" + requests.get());
        System.out.println("micrometerCount=" + micrometerTimer.count());
        System.out.println("dropwizardCount=" + dropwizardTimer.getCount());
    }

    /** Logback configured in code (no configuration file looked up), to a stream that drops the bytes. */
    static org.slf4j.Logger accessLog() {
        LoggerContext context = new LoggerContext();
        context.setMDCAdapter(new LogbackMDCAdapter());
        context.start();
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern(PATTERN);
        encoder.start();
        OutputStreamAppender<ILoggingEvent> appender = new OutputStreamAppender<>();
        appender.setContext(context);
        appender.setEncoder(encoder);
        appender.setOutputStream(new OutputStream() {
            @Override
            public void write(int b) {
            }

            @Override
            public void write(byte[] b, int off, int len) {
            }
        });
        appender.start();
        ch.qos.logback.classic.Logger logger = context.getLogger("access");
        logger.setAdditive(false);
        logger.setLevel(ch.qos.logback.classic.Level.INFO);
        logger.addAppender(appender);
        return logger;
    }
}
