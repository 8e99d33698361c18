package io.fastclock.doctor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.junit.jupiter.api.Test;

class LaunchPropertiesTest {
    @Test
    void theOptionsVariablesThenTheCommandLineUpToTheJar() {
        Map<String, String> p = LaunchProperties.of(Map.of("JAVA_TOOL_OPTIONS", " -javaagent:/x/fastclock.jar -Dfastclock.mode=on ",
                "JDK_JAVA_OPTIONS", "-Dfastclock.millis=coarse"), new String[] {"-Xmx1g", "-Dfastclock.millis=tsc",
                    "-Dfastclock.log", "-jar", "fastclock.jar", "-Dfastclock.nanos=system"});
        assertEquals(Map.of("fastclock.mode", "on", "fastclock.millis", "tsc", "fastclock.log", ""), p);
    }

    @Test
    void aMainClassEndsTheJvmsOptions() {
        assertEquals(Map.of("fastclock.jdk", "none"), LaunchProperties.of(Map.of(), new String[] {"-cp", "app.jar",
            "-Dfastclock.jdk=none", "com.acme.Main", "-Dfastclock.mode=on"}));
    }
}
