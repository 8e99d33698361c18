package io.fastclock.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fastclock.it.apps.ApmServiceApp;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * fastclock beside OpenTelemetry's javaagent, the APM agent most services run: a small HTTP service
 * ({@link ApmServiceApp}) under the simulator, with fastclock alone, then with the OTel agent and
 * fastclock before it, after it, and attached later. Each serves every request, makes a sampled span
 * for each (exporters none: spans are made and dropped), has fastclock active, prints no warning but
 * the JVM's and OTel's own, and reaches the slow clock per request within {@value #SLACK} of a read of
 * fastclock alone: the spans' clock reads (OTel's SystemClock, its Instrumenter) are fastclock's.
 * The agent jar comes from Maven Central as a test dependency (the build passes its path).
 */
class ApmAgentIT {
    /** Slow reads per request by which a configuration may differ from fastclock alone: the JIT's and class loading's stray reads. */
    static final double SLACK = 0.1;
    static final String[] OTEL_SETTINGS = {"-Dotel.traces.exporter=none", "-Dotel.metrics.exporter=none",
        "-Dotel.logs.exporter=none"};
    /** What the JVM and the OTel agent print on stderr without fastclock; a line beside these and fastclock's is new. */
    static final List<Pattern> KNOWN_LINES = Arrays.asList(
            Pattern.compile("\\[otel\\.javaagent [^]]+\\] \\[main\\] INFO io\\.opentelemetry\\.javaagent\\.tooling\\.VersionLogger - .*"),
            // the OTel agent appends its bootstrap jar to the boot class path
            Pattern.compile("OpenJDK 64-Bit Server VM warning: Sharing is only supported for boot loader classes because"
                    + " bootstrap classpath has been appended"),
            // JDK 24+: OTel's Byte Buddy calls sun.misc.Unsafe
            Pattern.compile("WARNING: (A terminally deprecated method in sun\\.misc\\.Unsafe has been called"
                    + "|sun\\.misc\\.Unsafe::.*|Please consider reporting this to the maintainers of class net\\.bytebuddy\\..*)"),
            // JDK 21+, an attach: JEP 451's notice
            Pattern.compile("WARNING: (" + Pattern.quote(AttachIT.JEP_451) + ".*|If a serviceability tool is .*"
                    + "|Dynamic loading of agents will be disallowed by default in a future release)"),
            Pattern.compile("fastclock: .*"));

    @TempDir
    Path temp;

    /**
     * Every order on JDK 17; on JDK 25 the two where fastclock takes over classes OTel has already
     * loaded and instrumented, whatever start= says (after it, and attached): the suite's time is
     * spent where the JDK matters.
     */
    static List<Arguments> cases() {
        List<Arguments> cases = new ArrayList<>();
        for (Jdk jdk : Jdk.all()) {
            if (jdk.feature == 17) {
                cases.add(Arguments.of(jdk, EnumSet.allOf(Order.class)));
            } else if (jdk.feature == 25) {
                cases.add(Arguments.of(jdk, EnumSet.of(Order.AFTER, Order.ATTACHED)));
            }
        }
        return cases;
    }

    enum Order {
        BEFORE, AFTER, ATTACHED
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("cases")
    void besideOpenTelemetryTheSpansClockReadsAreFastclocks(Jdk jdk, Set<Order> orders) throws Exception {
        // OTel's spans read nanoTime, which leaves the slow clock only for a TSC clock.
        HostMachine.assumeTscClock("OTel's span clocks off the slow clock");
        Path otel = otelAgent();
        String fastclock = "-javaagent:" + ForkedJvm.agentJar() + "=mode=on";
        Run alone = run(jdk, "fastclock alone", fastclock);
        assertEquals(0, alone.traced, "no agent made a span, yet requests came traced\n" + alone);
        List<Run> runs = new ArrayList<>();
        if (orders.contains(Order.BEFORE)) {
            runs.add(run(jdk, "fastclock before OTel", fastclock, "-javaagent:" + otel));
        }
        if (orders.contains(Order.AFTER)) {
            runs.add(run(jdk, "fastclock after OTel", "-javaagent:" + otel, fastclock));
        }
        if (orders.contains(Order.ATTACHED)) {
            runs.add(attached(jdk, otel));
        }
        for (Run r : runs) {
            assertEquals(r.requests, r.traced, r.name + ": not every request made a span of a trace of its own\n" + r);
            assertTrue(Math.abs(r.slowReadsPerRequest() - alone.slowReadsPerRequest()) <= SLACK, r.name + ": "
                    + r.slowReadsPerRequest() + " slow reads a request, fastclock alone " + alone.slowReadsPerRequest()
                    + ": OTel's clock reads are not all fastclock's\n" + r + "\nfastclock alone: " + alone.counts);
        }
    }

    private Run run(Jdk jdk, String name, String... agents) throws Exception {
        SlowReadCount count = SlowReadCount.create();
        ForkedJvm.Result r = count.underSimulator(ForkedJvm.on(jdk).withoutAgent(), 0).jvmArg(agents).jvmArg(OTEL_SETTINGS)
                .main(ApmServiceApp.class, "fastclock").run();
        return new Run(name, r, count.read());
    }

    /** The OTel agent at launch, fastclock attached before the service starts. */
    private Run attached(Jdk jdk, Path otel) throws Exception {
        SlowReadCount count = SlowReadCount.create();
        Path trigger = temp.resolve("go");
        ForkedJvm target = count.underSimulator(ForkedJvm.on(jdk).withoutAgent(), 0).jvmArg("-javaagent:" + otel)
                .jvmArg(OTEL_SETTINGS).main(ApmServiceApp.class, "fastclock", trigger.toString());
        ForkedJvm.Result r;
        try (ForkedJvm.Running app = target.start()) {
            app.awaitLine("waiting=1");
            ForkedJvm.Result attach = AttachIT.command(jdk, "attach", Long.toString(app.pid()), "mode=on");
            assertEquals(0, attach.exitCode, "attaching beside OTel\n" + attach);
            Files.createFile(trigger);
            r = app.finish();
        }
        return new Run("fastclock attached beside OTel", r, count.read());
    }

    /** The OTel agent's jar: from the build (failsafe), or on the class path (its-without-maven.sh). */
    static Path otelAgent() {
        String given = System.getProperty("fastclock.otel.agent");
        if (given != null && !given.isEmpty()) {
            return Paths.get(given);
        }
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (Paths.get(entry).getFileName().toString().startsWith("opentelemetry-javaagent-")) {
                return Paths.get(entry);
            }
        }
        Assumptions.abort("[fastclock-it] no OpenTelemetry javaagent: neither -Dfastclock.otel.agent nor on the class path");
        return null;
    }

    /** One JVM's run of the service, checked for what every configuration must show. */
    static final class Run {
        final String name;
        final ForkedJvm.Result result;
        final SlowReadCount.Counts counts;
        final long requests;
        final long traced;

        Run(String name, ForkedJvm.Result r, SlowReadCount.Counts counts) {
            this.name = name;
            this.result = r;
            this.counts = counts;
            System.out.println("[ApmAgentIT] " + name + ": " + r.stdout.replace('\n', ' ') + counts);
            assertEquals(0, r.exitCode, name + "\n" + r);
            assertEquals(0, r.longValue("failed"), name + ": the service failed requests\n" + r);
            this.requests = r.longValue("requests");
            this.traced = r.longValue("traced");
            assertEquals("true", r.value("fastclock.active"), name + ": fastclock is not active\n" + r);
            assertTrue(r.agentLines().stream().anyMatch(l -> l.startsWith("fastclock: active: ")), name + "\n" + r);
            for (String line : r.stderr.split("\n")) {
                assertTrue(line.isEmpty() || KNOWN_LINES.stream().anyMatch(p -> p.matcher(line).matches()),
                        name + ": a line on stderr that neither the JVM nor OTel prints alone: " + line + "\n" + r);
            }
        }

        /** The simulator's fine reads in the service's counted window, per request in it. */
        double slowReadsPerRequest() {
            return (double) counts.inCountedThreads() / ApmServiceApp.REQUESTS;
        }

        @Override
        public String toString() {
            return name + ": " + counts + "\n" + result;
        }
    }
}
