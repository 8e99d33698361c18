package io.fastclock.it;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

/**
 * Prints each integration-test class's wall time, slowest first, when the run ends: so that the
 * next growth of the suite is seen where it happens (registered through META-INF/services).
 */
public final class ItWallTimes implements TestExecutionListener {
    private final Map<String, Long> started = new ConcurrentHashMap<>();
    private final Map<String, Long> elapsed = new ConcurrentHashMap<>();

    @Override
    public void executionStarted(TestIdentifier id) {
        String c = className(id);
        if (c != null) {
            started.put(c, System.nanoTime());
        }
    }

    @Override
    public void executionFinished(TestIdentifier id, TestExecutionResult result) {
        String c = className(id);
        Long t0 = c == null ? null : started.remove(c);
        if (t0 != null) {
            elapsed.merge(c, System.nanoTime() - t0, Long::sum);
        }
    }

    @Override
    public void testPlanExecutionFinished(TestPlan plan) {
        if (elapsed.isEmpty()) {
            return;
        }
        List<Map.Entry<String, Long>> rows = new ArrayList<>(elapsed.entrySet());
        rows.sort((a, b) -> Long.compare(b.getValue(), a.getValue()));
        long total = 0;
        StringBuilder out = new StringBuilder("[ItWallTimes] wall time per test class, slowest first:\n");
        for (Map.Entry<String, Long> row : rows) {
            total += row.getValue();
            out.append(String.format("[ItWallTimes] %8.1f s  %s%n", row.getValue() / 1e9, row.getKey()));
        }
        out.append(String.format("[ItWallTimes] %8.1f s  in all (%d classes)%n", total / 1e9, rows.size()));
        System.out.print(out);
        System.out.flush();
    }

    /** The class of a class-level node, else null. */
    private static String className(TestIdentifier id) {
        return id.getSource().filter(ClassSource.class::isInstance).map(s -> ((ClassSource) s).getClassName())
                .orElse(null);
    }
}
