package io.fastclock.it.apps;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.PatternLayout;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import java.io.Serializable;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.Appender;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.Configurator;
import org.apache.logging.log4j.core.config.Property;
import org.apache.logging.log4j.core.config.builder.api.ConfigurationBuilder;
import org.apache.logging.log4j.core.config.builder.api.ConfigurationBuilderFactory;
import org.apache.logging.log4j.core.config.builder.impl.BuiltConfiguration;
import org.apache.logging.log4j.core.layout.PatternLayout.Builder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logback and Log4j2 events in the simulator's counted window, each framework configured in code with
 * an in-memory appender that formats the event with a date pattern and keeps its timestamp. Prints
 * {@code logback.slowReads} / {@code log4j2.slowReads} (for {@code events} events each), and for
 * events bracketed by CLOCK_REALTIME reads (JNA) outside the window, how many timestamps fell
 * outside [before - 1 ms, after + 1 ms]: {@code logback.wrongMillis}, {@code logback.wrongInstant},
 * {@code log4j2.wrongMillis}, {@code log4j2.wrongInstant}.
 *
 * <p>args: events checkedEvents (events 0: no counted window, for a JVM without the simulator)
 */
public final class LoggingApp {
    static final int WARM_UP = 5_000;

    public static void main(String[] args) throws Exception {
        AgentVerdict.await();
        int events = Integer.parseInt(args[0]);
        int checked = Integer.parseInt(args[1]);
        System.out.println("backends=" + ReferenceClocks.backends().replace(' ', ','));
        System.out.println("epoch=" + JTimeCoverageApp.epochBackend());
        System.out.println("events=" + events);

        Logger logback = logback();
        measure("logback", events, checked, () -> logback.info("event {}", 42), () -> LogbackStamps.millis,
                () -> LogbackStamps.instantNanos);
        org.apache.logging.log4j.Logger log4j2 = log4j2();
        measure("log4j2", events, checked, () -> log4j2.info("event {}", 42), () -> Log4j2Stamps.millis,
                () -> Log4j2Stamps.instantNanos);
        System.out.println("logback.formatted=" + LogbackStamps.formatted);
        System.out.println("log4j2.formatted=" + Log4j2Stamps.formatted);
        System.out.println("done=ok");
    }

    private static void measure(String name, int events, int checked, Runnable log,
            java.util.function.LongSupplier millis, java.util.function.LongSupplier instantNanos) {
        for (int i = 0; i < WARM_UP; i++) {
            log.run();
        }
        if (events > 0) {
            long before = JnaClocks.countedSlowReads();
            CountedWindow.run(events, log);
            System.out.println(name + ".slowReads=" + (JnaClocks.countedSlowReads() - before));
        }

        long wrongMillis = 0;
        long wrongInstant = 0;
        for (int i = 0; i < checked; i++) {
            long b = JnaClocks.realtimeNanos();
            log.run();
            long a = JnaClocks.realtimeNanos();
            long ms = millis.getAsLong();
            if (ms < Math.floorDiv(b, 1_000_000L) - 1 || ms > Math.floorDiv(a, 1_000_000L) + 1) {
                wrongMillis++;
            }
            long ns = instantNanos.getAsLong();
            if (ns < b - 1_000_000L || ns > a + 1_000_000L) {
                wrongInstant++;
            }
        }
        System.out.println(name + ".checked=" + checked);
        System.out.println(name + ".wrongMillis=" + wrongMillis);
        System.out.println(name + ".wrongInstant=" + wrongInstant);
        System.out.println(name + ".lastInstantNanos=" + instantNanos.getAsLong());
    }

    private static Logger logback() {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        context.reset();
        PatternLayout layout = new PatternLayout();
        layout.setContext(context);
        layout.setPattern("%d{yyyy-MM-dd HH:mm:ss.SSS} [%thread] %-5level %logger - %msg%n");
        layout.start();
        LogbackStamps appender = new LogbackStamps(layout);
        appender.setContext(context);
        appender.start();
        ch.qos.logback.classic.Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        root.setLevel(ch.qos.logback.classic.Level.INFO);
        root.addAppender(appender);
        return LoggerFactory.getLogger("logback.events");
    }

    private static org.apache.logging.log4j.Logger log4j2() {
        ConfigurationBuilder<BuiltConfiguration> builder = ConfigurationBuilderFactory.newConfigurationBuilder();
        builder.setStatusLevel(Level.ERROR);
        builder.add(builder.newRootLogger(Level.INFO));
        org.apache.logging.log4j.core.LoggerContext context = Configurator.initialize(builder.build());
        Configuration config = context.getConfiguration();
        Builder layout = org.apache.logging.log4j.core.layout.PatternLayout.newBuilder()
                .withPattern("%d{yyyy-MM-dd HH:mm:ss.SSS} [%t] %-5level %logger - %msg%n").withConfiguration(config);
        Appender appender = new Log4j2Stamps(layout.build());
        appender.start();
        config.addAppender(appender);
        config.getRootLogger().addAppender(appender, null, null);
        context.updateLoggers();
        return LogManager.getLogger("log4j2.events");
    }

    /** Keeps the last event's timestamp; formats each event (the date pattern included) into nothing. */
    static final class LogbackStamps extends AppenderBase<ILoggingEvent> {
        static volatile long millis;
        static volatile long instantNanos;
        static long formatted;
        private final PatternLayout layout;

        LogbackStamps(PatternLayout layout) {
            this.layout = layout;
        }

        @Override
        protected void append(ILoggingEvent event) {
            formatted += layout.doLayout(event).length();
            millis = event.getTimeStamp();
            java.time.Instant i = event.getInstant();
            instantNanos = i.getEpochSecond() * 1_000_000_000L + i.getNano();
        }
    }

    static final class Log4j2Stamps extends AbstractAppender {
        static volatile long millis;
        static volatile long instantNanos;
        static long formatted;

        Log4j2Stamps(org.apache.logging.log4j.core.Layout<? extends Serializable> layout) {
            super("stamps", null, layout, true, Property.EMPTY_ARRAY);
        }

        @Override
        public void append(LogEvent event) {
            formatted += getLayout().toByteArray(event).length;
            millis = event.getTimeMillis();
            org.apache.logging.log4j.core.time.Instant i = event.getInstant();
            instantNanos = i.getEpochSecond() * 1_000_000_000L + i.getNanoOfSecond();
        }
    }
}
