package io.fastclock.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.junit.jupiter.api.Test;

class ClockApiWorkloadsTest {

    @Test
    void javaTimeWorkloadsStampWithTheClock() {
        for (JavaTimeWorkload<?> w : List.of(JavaTimeWorkload.instant(), JavaTimeWorkload.localDateTime())) {
            Worker worker = w.newWorker();
            for (int i = 0; i < 50; i++) {
                worker.runBatch();
            }
            assertEquals("stamps earlier than the previous one: 0", w.detail(List.of(worker)), w.name());
        }
    }

    @Test
    void logbackEventsAreStampedNowWithThePattern() {
        LogbackWorkload w = new LogbackWorkload();
        Instant before = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        Worker worker = w.newWorker();
        worker.runBatch();
        Instant after = Instant.now();
        String detail = w.detail(List.of(worker));
        assertTrue(detail.startsWith("last: "), detail);
        String line = detail.substring("last: ".length());
        assertTrue(line.endsWith("INFO  i.f.examples.Orders - order " + (worker.batchSize() - 1) + " filled"), line);
        LocalDateTime stamped = LocalDateTime.parse(line.substring(0, 23),
                DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS"));
        Instant stampedAt = stamped.atZone(java.time.ZoneId.systemDefault()).toInstant();
        assertTrue(!stampedAt.isBefore(before) && !stampedAt.isAfter(after), stampedAt + " not in " + before + ".." + after);
    }
}
