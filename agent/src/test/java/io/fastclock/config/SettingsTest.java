package io.fastclock.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fastclock.rewrite.ClassFilter;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class SettingsTest {

    private static Settings args(String agentArgs) {
        return Settings.parse(agentArgs, Collections.<String, String>emptyMap());
    }

    private static Map<String, String> props(String... kv) {
        Map<String, String> m = new HashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    private static String error(String agentArgs, Map<String, String> props) {
        SettingsException e = assertThrows(SettingsException.class, () -> Settings.parse(agentArgs, props));
        assertFalse(e.getMessage().contains("\n"), "one line: " + e.getMessage());
        assertTrue(e.getMessage().startsWith("fastclock: "), e.getMessage());
        return e.getMessage();
    }

    private static String error(String agentArgs) {
        return error(agentArgs, Collections.<String, String>emptyMap());
    }

    private static void assertDefaults(Settings s) {
        assertEquals(Settings.Mode.AUTO, s.mode());
        assertEquals(Settings.Millis.AUTO, s.millis());
        assertEquals(Settings.Nanos.AUTO, s.nanos());
        assertEquals(Collections.emptyList(), s.include());
        assertEquals(Collections.emptyList(), s.exclude());
        assertEquals(Settings.Log.INFO, s.log());
        assertEquals(100, s.thresholdNs());
        assertEquals(Paths.get("/sys"), s.sysfsRoot());
        assertEquals(Paths.get("/proc"), s.procfsRoot());
        assertEquals(1000, s.recheckMs());
    }

    @Test
    void emptyAndNullInputGiveDefaults() {
        assertDefaults(Settings.defaults());
        assertDefaults(Settings.parse(null, (Map<String, String>) null));
        assertDefaults(args(""));
        assertDefaults(args("   "));
        assertDefaults(args(","));
        assertDefaults(Settings.parse(null, props("java.version", "17", "fastclockx", "y", "user.dir", "/")));
    }

    @Test
    void everyKeyFromAgentArguments() {
        Settings s = args("mode=on,millis=jna-coarse,nanos=system,include=com.acme.:org.foo.Bar,"
                + "exclude=com.acme.internal.,log=debug,threshold=250,sysfs=/tmp/s,procfs=/tmp/p,recheck=50,library=/opt/lib/libfastclock.so,jdk=all,jmx=off,instant=coarse");
        assertEquals(Settings.Mode.ON, s.mode());
        assertEquals(Settings.Millis.JNA_COARSE, s.millis());
        assertEquals(Settings.Nanos.SYSTEM, s.nanos());
        assertEquals(Arrays.asList("com.acme.", "org.foo.Bar"), s.include());
        assertEquals(Arrays.asList("com.acme.internal."), s.exclude());
        assertEquals(Settings.Log.DEBUG, s.log());
        assertEquals(250, s.thresholdNs());
        assertEquals(Paths.get("/tmp/s"), s.sysfsRoot());
        assertEquals(Paths.get("/tmp/p"), s.procfsRoot());
        assertEquals(50, s.recheckMs());
        assertEquals(Paths.get("/opt/lib/libfastclock.so"), s.library());
        assertEquals(JdkSetting.ALL, s.jdk());
        assertEquals(Settings.Jmx.OFF, s.jmx());
        assertEquals(Settings.InstantClock.COARSE, s.instant());
    }

    @Test
    void everyKeyFromSystemProperties() {
        Map<String, String> p = props("fastclock.mode", "off", "fastclock.millis", "coarse", "fastclock.nanos", "coarse",
                "fastclock.include", "a.b:c", "fastclock.exclude", "d$e", "fastclock.log", "quiet",
                "fastclock.threshold", "1000000", "fastclock.sysfs", "fix/sys", "fastclock.procfs", "fix/proc",
                "fastclock.recheck", "60000", "other.property", "whatever");
        Settings s = Settings.parse(null, p);
        assertEquals(Settings.Mode.OFF, s.mode());
        assertEquals(Settings.Millis.COARSE, s.millis());
        assertEquals(Settings.Nanos.COARSE, s.nanos());
        assertEquals(Arrays.asList("a.b", "c"), s.include());
        assertEquals(Arrays.asList("d$e"), s.exclude());
        assertEquals(Settings.Log.QUIET, s.log());
        assertEquals(1_000_000, s.thresholdNs());
        assertEquals(Paths.get("fix/sys"), s.sysfsRoot());
        assertEquals(Paths.get("fix/proc"), s.procfsRoot());
        assertEquals(60000, s.recheckMs());
    }

    @ParameterizedTest
    @CsvSource({
        "mode, auto", "mode, on", "mode, off", "mode, ON",
        "millis, auto", "millis, coarse", "millis, tsc", "millis, jna-coarse", "millis, system",
        "nanos, auto", "nanos, tsc", "nanos, system", "nanos, coarse",
        "log, quiet", "log, info", "log, debug",
        "threshold, 1", "threshold, 100", "threshold, 1000000",
        "recheck, 50", "recheck, 60000",
        "jmx, auto", "jmx, on", "jmx, off",
        "instant, auto", "instant, coarse", "instant, COARSE",
    })
    void acceptedValues(String key, String value) {
        Settings s = args(key + "=" + value);
        assertTrue(s.toString().contains(key + "=" + value.toLowerCase()), s.toString());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "mode=fast|fastclock: bad setting mode=fast (agent argument): accepted values are auto, on, off",
        "mode=|fastclock: bad setting mode= (agent argument): accepted values are auto, on, off",
        "millis=rdtsc|fastclock: bad setting millis=rdtsc (agent argument): accepted values are auto, coarse, tsc, jna-coarse, system",
        "nanos=fast|fastclock: bad setting nanos=fast (agent argument): accepted values are auto, tsc, system, coarse",
        "nanos=jna-coarse|fastclock: bad setting nanos=jna-coarse (agent argument): accepted values are auto, tsc, system, coarse",
        "instant=fine|fastclock: bad setting instant=fine (agent argument): accepted values are auto, coarse",
        "log=verbose|fastclock: bad setting log=verbose (agent argument): accepted values are quiet, info, debug",
        "threshold=0|fastclock: bad setting threshold=0 (agent argument): accepted values are a whole number of nanoseconds from 1 to 1000000",
        "threshold=-5|fastclock: bad setting threshold=-5 (agent argument): accepted values are a whole number of nanoseconds from 1 to 1000000",
        "threshold=+5|fastclock: bad setting threshold=+5 (agent argument): accepted values are a whole number of nanoseconds from 1 to 1000000",
        "threshold=1000001|fastclock: bad setting threshold=1000001 (agent argument): accepted values are a whole number of nanoseconds from 1 to 1000000",
        "threshold=99999999999999999999|fastclock: bad setting threshold=99999999999999999999 (agent argument): accepted values are a whole number of nanoseconds from 1 to 1000000",
        "threshold=1e3|fastclock: bad setting threshold=1e3 (agent argument): accepted values are a whole number of nanoseconds from 1 to 1000000",
        "threshold=|fastclock: bad setting threshold= (agent argument): accepted values are a whole number of nanoseconds from 1 to 1000000",
        "recheck=49|fastclock: bad setting recheck=49 (agent argument): accepted values are a whole number of milliseconds from 50 to 60000",
        "recheck=60001|fastclock: bad setting recheck=60001 (agent argument): accepted values are a whole number of milliseconds from 50 to 60000",
        "recheck=1s|fastclock: bad setting recheck=1s (agent argument): accepted values are a whole number of milliseconds from 50 to 60000",
        "sysfs=|fastclock: bad setting sysfs= (agent argument): accepted values are a directory path standing in for /sys",
        "procfs=|fastclock: bad setting procfs= (agent argument): accepted values are a directory path standing in for /proc",
        "include=com/acme|fastclock: bad setting include=com/acme (agent argument): accepted values are dotted package or class-name prefixes (Java identifier characters and dots) separated by ':'; 'com/acme' is not one",
        "exclude=com.acme:org foo|fastclock: bad setting exclude=com.acme:org foo (agent argument): accepted values are dotted package or class-name prefixes (Java identifier characters and dots) separated by ':'; 'org foo' is not one",
        "include=.com|fastclock: bad setting include=.com (agent argument): accepted values are dotted package or class-name prefixes (Java identifier characters and dots) separated by ':'; '.com' is not one",
        "include=com..acme|fastclock: bad setting include=com..acme (agent argument): accepted values are dotted package or class-name prefixes (Java identifier characters and dots) separated by ':'; 'com..acme' is not one",
        "include=com.*|fastclock: bad setting include=com.* (agent argument): accepted values are dotted package or class-name prefixes (Java identifier characters and dots) separated by ':'; 'com.*' is not one",
        "nanoz=tsc|fastclock: unknown setting 'nanoz' (agent argument): known settings are mode, millis, nanos, include, exclude, log, threshold, sysfs, procfs, recheck, library, jdk, jmx, instant, start",
        "mode=on,mode=off|fastclock: setting 'mode' given twice in agent arguments",
        "mode=on,log=debug,mode=on|fastclock: setting 'mode' given twice in agent arguments",
        "modeon|fastclock: bad agent argument 'modeon': expected key=value pairs separated by ',' (known settings are mode, millis, nanos, include, exclude, log, threshold, sysfs, procfs, recheck, library, jdk, jmx, instant, start)",
    })
    void badAgentArgument(String agentArgs, String message) {
        assertEquals(message, error(agentArgs));
    }

    @Test
    void badSystemProperties() {
        assertEquals("fastclock: unknown setting 'nanoz' (system property fastclock.nanoz): known settings are "
                        + "mode, millis, nanos, include, exclude, log, threshold, sysfs, procfs, recheck, library, jdk, jmx, instant, start",
                error(null, props("fastclock.nanoz", "tsc")));
        assertEquals("fastclock: bad setting nanos=fast (system property fastclock.nanos): accepted values are "
                + "auto, tsc, system, coarse", error("", props("fastclock.nanos", "fast")));
        assertEquals("fastclock: bad setting threshold=abc (system property fastclock.threshold): accepted values "
                + "are a whole number of nanoseconds from 1 to 1000000", error(null, props("fastclock.threshold", "abc")));
        assertEquals("fastclock: unknown setting '' (system property fastclock.): known settings are "
                        + "mode, millis, nanos, include, exclude, log, threshold, sysfs, procfs, recheck, library, jdk, jmx, instant, start",
                error(null, props("fastclock.", "x")));
    }

    @Test
    void aBadSystemPropertyIsReportedEvenIfTheAgentArgumentOverridesIt() {
        String m = error("nanos=system", props("fastclock.nanos", "fast"));
        assertTrue(m.contains("system property fastclock.nanos"), m);
    }

    @Test
    void valuesWithControlCharactersStayOnOneLine() {
        String m = error("mode=o\nn");
        assertEquals("fastclock: bad setting mode=o\\u000an (agent argument): accepted values are auto, on, off", m);
        String longValue = new String(new char[500]).replace('\0', 'x');
        m = error("mode=" + longValue);
        assertTrue(m.length() < 250, m);
        assertTrue(m.contains("..."), m);
        m = error(null, props("fastclock.mode", "a\r\nb"));
        assertTrue(m.contains("a\\u000d\\u000ab"), m);
    }

    @Test
    void agentArgumentBeatsSystemPropertyBeatsDefault() {
        Map<String, String> p = props("fastclock.mode", "off", "fastclock.nanos", "tsc", "fastclock.threshold", "500");
        Settings s = Settings.parse("mode=on,threshold=200", p);
        assertEquals(Settings.Mode.ON, s.mode());
        assertEquals(Settings.Nanos.TSC, s.nanos());
        assertEquals(200, s.thresholdNs());
        assertEquals(Settings.Millis.AUTO, s.millis());
    }

    @Test
    void whitespaceAndEmptyPairsAreTolerated() {
        Settings s = args(" mode = on ,, log=debug ,");
        assertEquals(Settings.Mode.ON, s.mode());
        assertEquals(Settings.Log.DEBUG, s.log());
    }

    @Test
    void listsAcceptEmptyValuesAndSkipEmptyItems() {
        assertEquals(Collections.emptyList(), args("include=").include());
        assertEquals(Arrays.asList("a", "b.c."), args("exclude=a::b.c.:").exclude());
        assertEquals(Arrays.asList("com.acme.Foo$Bar", "\u00e9t\u00e9."), args("include=com.acme.Foo$Bar:\u00e9t\u00e9.").include());
    }

    /** include and exclude as the agent uses them: the class filter made from them. */
    @Test
    void scope() {
        Settings s = args("include=com.acme.:org.foo.Bar,exclude=com.acme.internal.");
        ClassFilter f = new ClassFilter(s.include(), s.exclude());
        assertTrue(f.test("com/acme/App"));
        assertTrue(f.test("com/acme/sub/App"));
        assertTrue(f.test("org/foo/Bar"));
        assertTrue(f.test("org/foo/Bar$Inner"));
        assertFalse(f.test("org/foo/Baz"));
        assertFalse(f.test("com/acme/internal/X"));
        assertFalse(f.test(null));
        Settings all = args("exclude=com.acme.");
        ClassFilter allBut = new ClassFilter(all.include(), all.exclude());
        assertTrue(allBut.test("org/x/Y"));
        assertFalse(allBut.test("com/acme/Y"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"mode", "millis", "nanos", "include", "exclude", "log", "threshold", "sysfs", "procfs", "recheck", "library", "jdk", "jmx", "instant", "start"})
    void everyKeyIsKnown(String key) {
        assertTrue(Settings.KEYS.contains(key), key);
        try {
            args(key + "=?"); // a path may be '?'
        } catch (SettingsException e) {
            assertTrue(e.getMessage().startsWith("fastclock: bad setting " + key + "=? (agent argument): accepted values are "),
                    e.getMessage());
        }
    }
}
