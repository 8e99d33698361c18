package io.fastclock.entry;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fastclock.config.Settings;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The entry reads start= before the module exists; it must read it as the module's Settings do. */
class StartSettingTest {
    @ParameterizedTest(name = "args={0} property={1} env={2}")
    @CsvSource(nullValues = "-", value = {
        "-, -, -, false",
        "start=background, -, -, true",
        "'mode=on,start=background', -, -, true",
        "' start = Background ', -, -, true",
        "start=wait, background, background, false",
        "-, background, wait, true",
        "-, wait, background, false",
        "-, -, background, true",
        "mode=on, -, BACKGROUND, true",
        "start=wait, -, -, false",
        "-, -, ' ', false",
    })
    void readsTheKeyAsSettingsDo(String args, String property, String env, boolean background) {
        Map<String, String> props = new HashMap<>();
        if (property != null) {
            props.put("fastclock.start", property);
        }
        Map<String, String> environment = new HashMap<>();
        if (env != null) {
            environment.put("FASTCLOCK_START", env);
        }
        assertEquals(background, StartSetting.background(args, props, environment));
        assertEquals(background, Settings.parse(args, props, environment).start() == Settings.Start.BACKGROUND);
    }
}
