package io.fastclock.it;

import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

/**
 * Prints each skipped test with its reason (busy CPUs at start, no TSC clock, a JDK that cannot be
 * had) in the build's log as it happens: failsafe's summary counts skips, and only its XML reports
 * keep why (registered through META-INF/services).
 */
public final class ItSkips implements TestExecutionListener {
    private TestPlan plan;

    @Override
    public void testPlanExecutionStarted(TestPlan testPlan) {
        plan = testPlan;
    }

    @Override
    public void executionFinished(TestIdentifier id, TestExecutionResult result) {
        if (result.getStatus() == TestExecutionResult.Status.ABORTED) {
            String why = result.getThrowable().map(Throwable::getMessage).orElse("no reason given");
            System.out.println("[fastclock-it] SKIPPED " + name(id) + ": " + why.replaceFirst("^\\[fastclock-it\\] (SKIPPED: )?", ""));
            System.out.flush();
        }
    }

    @Override
    public void executionSkipped(TestIdentifier id, String reason) {
        System.out.println("[fastclock-it] SKIPPED " + name(id) + ": " + reason);
        System.out.flush();
    }

    /** "ApmAgentIT besideOpenTelemetry...(JDK 25: [AFTER, ATTACHED])": the class and the test's name. */
    private String name(TestIdentifier id) {
        String name = id.getDisplayName();
        for (TestIdentifier up = id; plan != null; ) {
            up = plan.getParent(up).orElse(null);
            if (up == null || !up.getParentId().isPresent()) {
                break;
            }
            name = up.getDisplayName() + " " + name;
        }
        return name;
    }
}
