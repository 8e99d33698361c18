import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.io.PrintWriter;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;

/**
 * Runs integration test classes without Maven, for a machine where Maven cannot run or write (the
 * lab's guests share the host's files read-only): one line per test (SUCCESSFUL, ABORTED for a
 * visible skip, FAILED with the message), then JUnit's summary; exit status 1 if any test failed.
 * Used by integration-tests/its-without-maven.sh.
 */
public final class ItLauncher {
    private static final int MAX_MESSAGE_CHARS = 6000;

    public static void main(String[] args) throws ClassNotFoundException {
        LauncherDiscoveryRequestBuilder request = LauncherDiscoveryRequestBuilder.request();
        for (String name : args) {
            request.selectors(selectClass(Class.forName(name)));
        }
        Launcher launcher = LauncherFactory.create();
        SummaryGeneratingListener summary = new SummaryGeneratingListener();
        TestExecutionListener eachTest = new TestExecutionListener() {
            @Override
            public void executionFinished(TestIdentifier test, TestExecutionResult result) {
                if (test.isTest()) {
                    System.out.println("[it] " + result.getStatus() + " " + name(test));
                    result.getThrowable().ifPresent(t -> {
                        String message = String.valueOf(t.getMessage());
                        System.out.println(message.substring(0, Math.min(message.length(), MAX_MESSAGE_CHARS)));
                    });
                }
            }

            @Override
            public void executionSkipped(TestIdentifier test, String reason) {
                System.out.println("[it] SKIPPED " + name(test) + ": " + reason);
            }
        };
        launcher.execute(request.build(), summary, eachTest);
        summary.getSummary().printTo(new PrintWriter(System.out));
        System.exit(summary.getSummary().getTotalFailureCount() == 0 ? 0 : 1);
    }

    /** "ActivationIT modeOffRewritesNothing(Jdk) #1" from JUnit's unique id. */
    private static String name(TestIdentifier test) {
        return test.getUniqueId().replaceAll(".*\\[class:io\\.fastclock\\.it\\.([^\\]]*)\\].*\\[test-template:([^\\]]*)\\].*\\[test-template-invocation:(#\\d+)\\]", "$1 $2 $3")
                .replaceAll(".*\\[class:io\\.fastclock\\.it\\.([^\\]]*)\\].*\\[method:([^\\]]*)\\]", "$1 $2");
    }
}
