package io.fastclock.entry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fastclock.config.Settings;
import io.fastclock.config.SettingsException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The entry reads its settings before the module exists: start= as the module's Settings read it
 * (AgentEntry, on premain's thread),
 * and "plain" only where Settings would accept the same settings and leave every choice to auto.
 */
class EntrySettingsTest {
    @ParameterizedTest(name = "args={0} property={1} env={2}")
    @CsvSource(nullValues = "-", value = {
        "-, -, -, true",
        "start=background, -, -, true",
        "'mode=on,start=background', -, -, true",
        "' start = Background ', -, -, true",
        "start=wait, background, background, false",
        "-, background, wait, true",
        "-, wait, background, false",
        "-, -, background, true",
        "mode=on, -, BACKGROUND, true",
        "start=wait, -, -, false",
        "-, -, ' ', true",
    })
    void readsStartAsSettingsDo(String args, String property, String env, boolean background) {
        Map<String, String> props = new HashMap<>();
        if (property != null) {
            props.put("fastclock.start", property);
        }
        Map<String, String> environment = new HashMap<>();
        if (env != null) {
            environment.put("FASTCLOCK_START", env);
        }
        assertEquals(background, EntrySettings.read(args, props, environment).background());
        assertEquals(background, Settings.parse(args, props, environment).start() == Settings.Start.BACKGROUND);
    }

    /** Settings the module accepts with every choice auto: the entry may answer alone, reading the same values. */
    @ParameterizedTest(name = "[{index}] ''{0}''")
    @ValueSource(strings = {"", "start=background", "log=quiet", "log=DEBUG,mode=auto", "millis=auto,nanos=Auto",
        "threshold=1000000", "threshold=1", " threshold = 250 , start=wait,", "sysfs=/tmp,procfs=/tmp"})
    void plainWhereSettingsAcceptThemAndLeaveAllToAuto(String args) {
        EntrySettings entry = EntrySettings.read(args, new HashMap<>(), new HashMap<>());
        Settings module = Settings.parse(args, new HashMap<>(), new HashMap<>());
        assertTrue(entry.plain(), args);
        assertEquals(module.thresholdNs(), entry.thresholdNs(), args);
        assertEquals(module.sysfsRoot().toString(), entry.sysfs(), args);
        assertEquals(module.log() == Settings.Log.QUIET, entry.quiet(), args);
        assertEquals(Settings.Mode.AUTO, module.mode());
    }

    /** Anything else goes to the module, which judges it (bad values) or does what it asks. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"mode=on", "mode=off", "millis=coarse", "nanos=tsc", "jmx=on", "jfr=off", "include=com.acme",
        "library=/x.so", "threshold=0", "threshold=1000001", "threshold=abc", "threshold=", "log=loud", "start=soon",
        "sysfs=", "bogus=1", "mode", "mode=auto,mode=auto", "=auto"})
    void notPlainOtherwise(String args) {
        assertFalse(EntrySettings.read(args, new HashMap<>(), new HashMap<>()).plain(), args);
        boolean moduleAcceptsAllAuto;
        try {
            Settings s = Settings.parse(args, new HashMap<>(), new HashMap<>());
            moduleAcceptsAllAuto = s.mode() == Settings.Mode.AUTO && s.millis() == Settings.Millis.AUTO
                    && s.nanos() == Settings.Nanos.AUTO && s.library() == null
                    && args.matches("(start|log|mode|millis|nanos|threshold|sysfs|procfs)=.*");
        } catch (SettingsException e) {
            moduleAcceptsAllAuto = false;
        }
        assertFalse(moduleAcceptsAllAuto, "the entry is stricter than it needs to be for " + args);
    }

    @Test
    void eachSourceIsRead() {
        Map<String, String> props = new HashMap<>();
        props.put("fastclock.threshold", "300");
        assertEquals(300, EntrySettings.read(null, props, new HashMap<>()).thresholdNs());
        Map<String, String> env = new HashMap<>();
        env.put("FASTCLOCK_THRESHOLD", "400");
        assertEquals(400, EntrySettings.read(null, new HashMap<>(), env).thresholdNs());
        assertEquals(300, EntrySettings.read(null, props, env).thresholdNs(), "properties over the environment");
        assertEquals(500, EntrySettings.read("threshold=500", props, env).thresholdNs(), "the argument over both");
        props.put("fastclock.jmx", "on");
        assertFalse(EntrySettings.read(null, props, env).plain(), "a property the entry does not read");
        env.put("FASTCLOCK_MODE", "on");
        assertFalse(EntrySettings.read(null, new HashMap<>(), env).plain(), "a variable naming a choice");
        Map<String, String> blank = new HashMap<>();
        blank.put("FASTCLOCK_MODE", " ");
        assertTrue(EntrySettings.read(null, new HashMap<>(), blank).plain(), "Settings ignores a blank variable");
    }

    @Test
    void thePlainKeysAreSettingsKeys() {
        List<String> keys = Arrays.asList(EntrySettings.PLAIN_KEYS);
        assertEquals(keys, Arrays.stream(EntrySettings.PLAIN_KEYS_TEXT.split(", ")).collect(Collectors.toList()));
        for (String key : keys) {
            Settings.parse(key + "=" + ("threshold".equals(key) ? "100" : "sysfs".equals(key) || "procfs".equals(key)
                    ? "/tmp" : "start".equals(key) ? "wait" : "log".equals(key) ? "info" : "auto"), new HashMap<>());
        }
    }

    /**
     * Where premain may rewrite from the start: settings the module accepts, mode not off. Its scope
     * follows them: a clock kept on the system clock is not rewritten, the epoch read only in the JDK's
     * classes.
     */
    @ParameterizedTest(name = "[{index}] ''{0}''")
    @CsvSource(delimiter = '|', value = {
        "''|''|''|time|millis,nanos,epoch",
        "mode=on,start=wait|''|''|time|millis,nanos,epoch",
        "include=com.acme.:org.foo.Bar,exclude=com.acme.internal.|com.acme.:org.foo.Bar|com.acme.internal.|time|millis,nanos,epoch",
        "jdk=none,nanos=system|''|''|none|millis,",
        "jdk=ALL,millis=system,instant=coarse|''|''|all|nanos,epoch",
        "millis=jna-coarse,nanos=coarse,log=quiet,jmx=on,recheck=200|''|''|time|millis,nanos,epoch",
    })
    void earlyWhereSettingsAcceptThemAndModeIsNotOff(String args, String include, String exclude, String jdk, String served) {
        EntrySettings entry = EntrySettings.read(args, new HashMap<>(), new HashMap<>());
        Settings module = Settings.parse(args, new HashMap<>(), new HashMap<>());
        assertTrue(entry.early(), args);
        assertFalse(module.mode() == Settings.Mode.OFF, args);
        String[] early = entry.earlySettings();
        assertEquals(include, early[0], args);
        assertEquals(exclude, early[1], args);
        assertEquals(jdk, early[2], args);
        assertEquals(served, early[3], args);
        assertEquals(module.include(), Arrays.asList(include.isEmpty() ? new String[0] : include.split(":")), args);
        assertEquals(module.jdk().settingName(), early[2], args);
    }

    /** Never early where the module would turn fastclock off, or where the entry cannot judge a setting that shapes the rewrite. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"mode=off", "mode=sometimes", "millis=fast", "nanos=rdtsc", "jdk=some", "instant=now",
        "include=com..acme", "exclude=.com", "include=com/acme", "log=loud", "start=soon", "bogus=1", "mode",
        "mode=on,mode=on", "=on", "recheck=10", "recheck=60001", "threshold=0", "jmx=maybe", "sysfs=", "library="})
    void notEarlyOtherwise(String args) {
        assertFalse(EntrySettings.read(args, new HashMap<>(), new HashMap<>()).early(), args);
        boolean moduleWouldRewrite;
        try {
            moduleWouldRewrite = Settings.parse(args, new HashMap<>(), new HashMap<>()).mode() != Settings.Mode.OFF;
        } catch (SettingsException e) {
            moduleWouldRewrite = false;
        }
        assertFalse(moduleWouldRewrite, "the entry is stricter than it needs to be for " + args);
    }

    @Test
    void theKnownKeysAreSettingsKeys() {
        for (String key : EntrySettings.KNOWN_KEYS) {
            String value = "threshold".equals(key) || "recheck".equals(key) ? "100" : "sysfs".equals(key)
                    || "procfs".equals(key) ? "/tmp" : "library".equals(key) ? "/bin/sh" : "start".equals(key) ? "wait"
                    : "log".equals(key) ? "info" : "include".equals(key) || "exclude".equals(key) ? "com.acme."
                    : "jdk".equals(key) ? "time" : "auto";
            Settings.parse(key + "=" + value, new HashMap<>());
        }
    }
}
