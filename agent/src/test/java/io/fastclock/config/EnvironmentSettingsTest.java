package io.fastclock.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Paths;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** FASTCLOCK_<KEY> environment variables, and their place in the precedence order. */
class EnvironmentSettingsTest {
    private static Map<String, String> map(String... kv) {
        Map<String, String> m = new HashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    private static Settings env(String... kv) {
        return Settings.parse(null, Collections.<String, String>emptyMap(), map(kv));
    }

    @Test
    void everyKeyHasAnEnvironmentName() {
        for (String key : Settings.KEYS) {
            assertEquals("FASTCLOCK_" + key.toUpperCase(java.util.Locale.ROOT), Settings.environmentName(key));
        }
        assertEquals("FASTCLOCK_SOME_KEY", Settings.environmentName("some-key"));
    }

    @Test
    void everyKeyFromTheEnvironment() {
        Settings s = env("FASTCLOCK_MODE", "on", "FASTCLOCK_MILLIS", "jna-coarse", "FASTCLOCK_NANOS", "system",
                "FASTCLOCK_INCLUDE", "com.acme.:org.foo.Bar", "FASTCLOCK_EXCLUDE", "com.acme.internal.",
                "FASTCLOCK_LOG", "debug", "FASTCLOCK_THRESHOLD", "250", "FASTCLOCK_SYSFS", "/tmp/sys",
                "FASTCLOCK_PROCFS", "/tmp/proc", "FASTCLOCK_RECHECK", "200", "FASTCLOCK_LIBRARY", "/opt/libfastclock.so",
                "FASTCLOCK_JMX", "on", "FASTCLOCK_JDK", "none", "FASTCLOCK_INSTANT", "coarse");
        assertEquals(Settings.Mode.ON, s.mode());
        assertEquals(Settings.Millis.JNA_COARSE, s.millis());
        assertEquals(Settings.Nanos.SYSTEM, s.nanos());
        assertEquals(Arrays.asList("com.acme.", "org.foo.Bar"), s.include());
        assertEquals(Arrays.asList("com.acme.internal."), s.exclude());
        assertEquals(Settings.Log.DEBUG, s.log());
        assertEquals(250, s.thresholdNs());
        assertEquals(Paths.get("/tmp/sys"), s.sysfsRoot());
        assertEquals(Paths.get("/tmp/proc"), s.procfsRoot());
        assertEquals(200, s.recheckMs());
        assertEquals(Paths.get("/opt/libfastclock.so"), s.library());
        assertEquals(Settings.Jmx.ON, s.jmx());
        assertEquals(JdkSetting.NONE, s.jdk());
        assertEquals(Settings.InstantClock.COARSE, s.instant());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "FASTCLOCK_MODE|fast|fastclock: bad setting mode=fast (environment variable FASTCLOCK_MODE): accepted values are auto, on, off",
        "FASTCLOCK_MILLIS|nano|fastclock: bad setting millis=nano (environment variable FASTCLOCK_MILLIS): accepted values are auto, coarse, tsc, jna-coarse, system",
        "FASTCLOCK_THRESHOLD|-5|fastclock: bad setting threshold=-5 (environment variable FASTCLOCK_THRESHOLD): accepted values are a whole number of nanoseconds from 1 to 1000000",
        "FASTCLOCK_RECHECK|10|fastclock: bad setting recheck=10 (environment variable FASTCLOCK_RECHECK): accepted values are a whole number of milliseconds from 50 to 60000",
        "FASTCLOCK_JMX|yes|fastclock: bad setting jmx=yes (environment variable FASTCLOCK_JMX): accepted values are auto, on, off",
        "FASTCLOCK_INSTANT|fine|fastclock: bad setting instant=fine (environment variable FASTCLOCK_INSTANT): accepted values are auto, coarse",
        "FASTCLOCK_INCLUDE|com..acme|fastclock: bad setting include=com..acme (environment variable FASTCLOCK_INCLUDE): accepted values are dotted package or class-name prefixes (Java identifier characters and dots) separated by ':'; 'com..acme' is not one",
    })
    void aBadValueNamesTheVariableTheValueAndWhatIsAccepted(String name, String value, String message) {
        SettingsException e = assertThrows(SettingsException.class, () -> env(name, value));
        assertEquals(message, e.getMessage());
    }

    @Test
    void aBadVariableIsReportedEvenIfASystemPropertyOrTheAgentArgumentOverridesIt() {
        SettingsException e = assertThrows(SettingsException.class,
                () -> Settings.parse("mode=on", map("fastclock.mode", "on"), map("FASTCLOCK_MODE", "fast")));
        assertTrue(e.getMessage().contains("(environment variable FASTCLOCK_MODE)"), e.getMessage());
    }

    @Test
    void otherFastclockVariablesAreIgnored() {
        // Kubernetes sets these for a Service named "fastclock"; they are not settings.
        Settings s = env("FASTCLOCK_PORT", "tcp://10.0.0.1:80", "FASTCLOCK_SERVICE_HOST", "10.0.0.1",
                "FASTCLOCK_mode", "fast", "fastclock.mode", "fast");
        assertEquals(Settings.Mode.AUTO, s.mode());
    }

    @Test
    void anEmptyVariableCountsAsUnset() {
        Settings s = env("FASTCLOCK_MODE", "", "FASTCLOCK_LOG", "  ");
        assertEquals(Settings.Mode.AUTO, s.mode());
        assertEquals(Settings.Log.INFO, s.log());
    }

    @Test
    void agentArgumentBeatsSystemPropertyBeatsEnvironmentBeatsDefault() {
        Map<String, String> environment = map("FASTCLOCK_MODE", "off", "FASTCLOCK_NANOS", "tsc",
                "FASTCLOCK_THRESHOLD", "500", "FASTCLOCK_LOG", "debug");
        Map<String, String> properties = map("fastclock.mode", "on", "fastclock.nanos", "system");
        Settings s = Settings.parse("mode=auto", properties, environment);
        assertEquals(Settings.Mode.AUTO, s.mode());
        assertEquals(Settings.Nanos.SYSTEM, s.nanos());
        assertEquals(500, s.thresholdNs());
        assertEquals(Settings.Log.DEBUG, s.log());
        assertEquals(Settings.Millis.AUTO, s.millis());
    }

    @Test
    void jmxDefaultsToAuto() {
        assertEquals(Settings.Jmx.AUTO, Settings.defaults().jmx());
        assertEquals(Settings.Jmx.OFF, Settings.parse("jmx=off", (Map<String, String>) null).jmx());
    }
}
