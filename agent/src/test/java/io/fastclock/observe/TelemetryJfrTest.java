package io.fastclock.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fastclock.config.Settings;
import io.fastclock.clock.ManualTscClocks;
import io.fastclock.clock.TscClock;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Frequency;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Percentage;
import jdk.jfr.Recording;
import jdk.jfr.Timespan;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The events, in this JVM, through a real recording: what the agent emits is what a recording holds. */
class TelemetryJfrTest {
    static final List<Class<?>> EVENTS = Arrays.asList(ActivationEvent.class, FallbackEvent.class,
            TscHealthEvent.class, RetransformEvent.class);

    @TempDir
    Path temp;

    static ActivationFacts facts() {
        return new ActivationFacts("premain", true, "active: test", "hpet", "tsc", "millis reason", "coarse",
                "nanos reason", 1_000_000L, 600.5, 610.25, 27.5, 11.0, 100);
    }

    /** Far beyond what a wait for a periodic event needs, even on a loaded machine. */
    static final long DEADLINE_NANOS = 60_000_000_000L;

    /** Dumps the running recording until it holds {@code n} events of this name or the deadline passes. */
    private List<RecordedEvent> awaitEvents(Recording recording, String name, int n) throws Exception {
        Path look = temp.resolve("look.jfr");
        long deadline = System.nanoTime() + DEADLINE_NANOS;
        List<RecordedEvent> found;
        do {
            Thread.sleep(20);
            recording.dump(look);
            found = RecordingFile.readAllEvents(look).stream().filter(e -> e.getEventType().getName().equals(name))
                    .collect(Collectors.toList());
        } while (found.size() < n && System.nanoTime() < deadline);
        return found;
    }

    @Test
    void activationFallbackHealthAndRetransformReachARunningRecording() throws Exception {
        Path file = temp.resolve("rec.jfr");
        // Every figure distinct and non-zero, so that a field filled from the wrong one shows.
        TscClock clock = ManualTscClocks.clockWithHistory();
        List<Long> figures = Arrays.asList(clock.reanchors(), clock.lateExtensions(), clock.lastErrorNanos(),
                clock.worstErrorNanos());
        assertEquals(figures.size(), figures.stream().distinct().count(), "figures not distinct: " + figures);
        assertFalse(figures.contains(0L), "a figure is zero: " + figures);
        assertNotEquals(0.0, clock.lastRateChangePpm());
        try (Recording recording = new Recording()) {
            for (Class<?> event : EVENTS) {
                recording.enable(event.getAnnotation(Name.class).value());
            }
            recording.enable("fastclock.TscHealth").withPeriod(Duration.ofMillis(100));
            recording.start();
            Telemetry.started(Settings.parse("jmx=off", (Map<String, String>) null), facts(), key -> null);
            Telemetry.tscClock(TscClockFigures.watch(clock));
            // The periodic TSC event, asked for every 100 ms, comes at most once a second: two of them.
            assertTrue(awaitEvents(recording, "fastclock.TscHealth", 2).size() >= 2, "two TSC health events in time");
            clock.fallBack("test: tsc left available_clocksource");
            clock.fallBack("a second fallback is no fallback");
            assertNotEquals(clock.lastErrorNanos(), clock.fallbackErrorNanos(), "the two errors must differ to tell them apart");
            Telemetry.retransformed(3, 7, 1_234_567L);
            recording.stop();
            recording.dump(file);
        }
        List<RecordedEvent> events = RecordingFile.readAllEvents(file);
        Map<String, List<RecordedEvent>> byName = events.stream()
                .collect(Collectors.groupingBy(e -> e.getEventType().getName()));

        List<RecordedEvent> activation = byName.get("fastclock.Activation");
        assertTrue(activation != null && activation.size() >= 1, "no activation: " + byName.keySet());
        RecordedEvent a = activation.get(0);
        assertEquals("premain", a.getString("started"));
        assertTrue(a.getBoolean("active"));
        assertEquals("tsc", a.getString("millisBackend"));
        assertEquals("coarse", a.getString("nanosBackend"));
        assertEquals("hpet", a.getString("clocksource"));
        assertEquals(Duration.ofMillis(1), a.getDuration("millisLag"));
        assertEquals(600.5, a.getDouble("systemMillisNanosPerCall"));
        assertEquals(11.0, a.getDouble("nanosBackendNanosPerCall"));
        assertEquals(Duration.ofNanos(100), a.getDuration("threshold"));

        List<RecordedEvent> fallback = byName.get("fastclock.Fallback");
        assertEquals(1, fallback == null ? 0 : fallback.size(), "exactly one fallback: " + fallback);
        RecordedEvent f = fallback.get(0);
        assertEquals("test: tsc left available_clocksource", f.getString("reason"));
        assertEquals(clock.fallbackErrorNanos(), f.getDuration("error").toNanos());
        assertEquals(clock.lastErrorNanos(), f.getDuration("lastError").toNanos());
        assertEquals(clock.worstErrorNanos(), f.getDuration("worstError").toNanos());
        assertEquals(clock.reanchors(), f.getLong("reanchors"));

        List<RecordedEvent> health = byName.get("fastclock.TscHealth");
        assertTrue(health != null && health.size() >= 2, "fewer than two TSC health events: " + byName.keySet());
        for (RecordedEvent h : health) {
            // Taken while the clock's figures stood still: each field is exactly the clock's figure.
            assertEquals(clock.lastErrorNanos(), h.getDuration("offset").toNanos(), h.toString());
            assertEquals(clock.worstErrorNanos(), h.getDuration("worstOffset").toNanos(), h.toString());
            assertEquals(clock.lastRateChangePpm(), h.getDouble("rateChangePpm"), h.toString());
            assertEquals(clock.reanchors(), h.getLong("reanchors"), h.toString());
            assertEquals(clock.lateExtensions(), h.getLong("lateExtensions"), h.toString());
        }
        for (int i = 1; i < health.size(); i++) {
            Duration apart = Duration.between(health.get(i - 1).getStartTime(), health.get(i).getStartTime());
            assertTrue(apart.toNanos() >= JfrEvents.MIN_HEALTH_INTERVAL_NANOS, "TscHealth more than once a second: " + apart);
        }
        for (RecordedEvent h : health) {
            assertTrue(h.getStartTime().isBefore(f.getStartTime()), "TscHealth after the fallback");
        }

        List<RecordedEvent> retransform = byName.get("fastclock.Retransform");
        assertEquals(1, retransform.size());
        assertEquals(3, retransform.get(0).getInt("classes"));
        assertEquals(7, retransform.get(0).getInt("callSites"));
        assertEquals(Duration.ofNanos(1_234_567L), retransform.get(0).getDuration("elapsed"));
    }

    /** Every field states its unit: a JFR unit annotation, or a label or description naming it. */
    @Test
    void everyEventIsInTheFastclockCategoryAndEveryFieldHasAUnit() {
        List<String> missing = new ArrayList<>();
        for (Class<?> event : EVENTS) {
            assertTrue(event.getAnnotation(Name.class).value().startsWith("fastclock."), event.getName());
            assertEquals(Arrays.asList("fastclock"), Arrays.asList(event.getAnnotation(Category.class).value()), event.getName());
            for (Field field : event.getDeclaredFields()) {
                if (Modifier.isStatic(field.getModifiers()) || field.isSynthetic()
                        || field.getName().equals("startTime") || field.getName().equals("duration")) {
                    continue; // JFR's own fields, added when it instruments the class
                }
                Label label = field.getAnnotation(Label.class);
                Description description = field.getAnnotation(Description.class);
                boolean unitAnnotation = field.isAnnotationPresent(Timespan.class) || field.isAnnotationPresent(DataAmount.class)
                        || field.isAnnotationPresent(Frequency.class) || field.isAnnotationPresent(Percentage.class);
                String text = (label == null ? "" : label.value()) + " " + (description == null ? "" : description.value());
                boolean unitInText = text.contains("ns per call") || text.contains("ppm") || text.contains("a count")
                        || text.contains("no unit") || field.getType() == boolean.class
                        || text.matches(".*(system|premain|true).*") && field.getType() == String.class;
                if (label == null || description == null || !(unitAnnotation || unitInText)) {
                    missing.add(event.getSimpleName() + "." + field.getName());
                }
            }
        }
        assertEquals(new ArrayList<String>(), missing, "fields without a label, a description or a unit");
    }
}
