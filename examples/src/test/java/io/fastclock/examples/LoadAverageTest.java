package io.fastclock.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LoadAverageTest {

    @Test
    void readsTheOneMinuteAverageAndKeepsFirstLastAndHighest(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("loadavg");
        LoadAverage load = new LoadAverage(f);
        for (String line : new String[] {"0.52 0.58 0.59 1/123 4567\n", "2.40 1.00 0.70 3/130 4600\n", "2.31 1.1 0.7 2/131 4601\n"}) {
            Files.write(f, line.getBytes(StandardCharsets.US_ASCII));
            load.read();
        }
        assertEquals("0.52 at the start, 2.31 at the end, 2.40 at most, on 2 processors", load.summary(2));
    }

    @Test
    void anUnreadableFileGivesNoFigure(@TempDir Path dir) {
        LoadAverage load = new LoadAverage(dir.resolve("missing"));
        assertTrue(Double.isNaN(load.read()));
        assertEquals("?", LoadAverage.format(Double.NaN));
        assertTrue(load.summary(2).startsWith("unknown"), load.summary(2));
    }
}
