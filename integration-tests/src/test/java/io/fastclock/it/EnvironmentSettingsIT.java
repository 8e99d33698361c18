package io.fastclock.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fastclock.it.apps.HelloApp;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * FASTCLOCK_<KEY> in a real JVM's environment: read, bad values named, beaten by -D and by the agent argument.
 *
 * <p>Proves, in docs/CONTRACT.md: settings.sources, host.bad-setting.
 */
class EnvironmentSettingsIT {
    /** Settings parsing: the same on every JDK. */
    static List<Jdk> jdks() {
        return Jdk.one();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void theEnvironmentIsReadAndRanksBelowSystemPropertiesAndTheAgentArgument(Jdk jdk) throws Exception {
        ForkedJvm.Result env = ForkedJvm.on(jdk).slowClocksource(0).env("FASTCLOCK_MODE", "off").main(HelloApp.class).run();
        assertEquals(0, env.exitCode, env.toString());
        assertEquals(Arrays.asList("fastclock: inactive: mode=off"), env.agentLines(), env.toString());

        ForkedJvm.Result property = ForkedJvm.on(jdk).slowClocksource(0).env("FASTCLOCK_MODE", "off")
                .jvmArg("-Dfastclock.mode=on").env("FASTCLOCK_NANOS", "system").main(HelloApp.class).run();
        assertEquals(0, property.exitCode, property.toString());
        assertEquals("true", property.value("active"), "-Dfastclock.mode=on beats FASTCLOCK_MODE=off\n" + property);
        // The millis backend is the host's (tsc, or coarse on a 1 ms tick or without a TSC clock).
        assertTrue(property.value("backends").endsWith(",nanos=system") && !property.value("backends").equals("millis=system,nanos=system"),
                "FASTCLOCK_NANOS=system is read\n" + property);

        ForkedJvm.Result argument = ForkedJvm.on(jdk).slowClocksource(0).env("FASTCLOCK_MODE", "on")
                .jvmArg("-Dfastclock.mode=on").agentArgs("mode=off").main(HelloApp.class).run();
        assertEquals(0, argument.exitCode, argument.toString());
        assertEquals(Arrays.asList("fastclock: inactive: mode=off"), argument.agentLines(), "the agent argument wins\n" + argument);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void aBadValueNamesTheVariableAndTheApplicationRunsOnTheSystemClocks(Jdk jdk) throws Exception {
        ForkedJvm.Result r = ForkedJvm.on(jdk).slowClocksource(0).env("FASTCLOCK_MILLIS", "fastest")
                .main(HelloApp.class).run();
        assertEquals(0, r.exitCode, r.toString());
        assertEquals("ok", r.value("hello"), r.toString());
        assertEquals(Arrays.asList("fastclock: bad setting millis=fastest (environment variable FASTCLOCK_MILLIS): accepted"
                + " values are auto, coarse, tsc, jna-coarse, system; fastclock is off and the application runs on the"
                + " system clocks"), r.agentLines(), r.toString());
        assertEquals("false", r.value("active"), r.toString());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void variablesAContainerPlatformMakesUpAreIgnored(Jdk jdk) throws Exception {
        ForkedJvm.Result r = ForkedJvm.on(jdk).slowClocksource(0).env("FASTCLOCK_PORT", "tcp://10.0.0.1:80")
                .env("FASTCLOCK_SERVICE_HOST", "10.0.0.1").main(HelloApp.class).run();
        assertEquals(0, r.exitCode, r.toString());
        assertEquals(1, r.agentLines().size(), r.toString());
        assertTrue(r.agentLines().get(0).startsWith("fastclock: active:"), r.toString());
    }
}
