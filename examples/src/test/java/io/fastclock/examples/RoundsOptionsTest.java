package io.fastclock.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class RoundsOptionsTest {

    @Test
    void theSetUpsAreThoseWhoseFilesAreGivenAndTheRoundsShareTheMeasuringTime() {
        RoundsOptions o = RoundsOptions.parse(new String[] {"--demo-jar", "d.jar", "--agent", "a.jar", "--quick"}, 4);
        assertEquals(List.of(SetUp.PLAIN, SetUp.AGENT), o.setUps);
        assertEquals(RoundsOptions.DEFAULT_ROUNDS, o.rounds);
        assertEquals(0.3 / RoundsOptions.DEFAULT_ROUNDS, o.sampleSeconds(), 1e-12);
        assertEquals(4, o.demo.maxThreads);
        RoundsOptions all = RoundsOptions.parse(new String[] {"--demo-jar", "d.jar", "--agent", "a.jar", "--simulator",
            "s.so", "--setups", "slow-agent,plain", "--rounds", "6"}, 4);
        assertEquals(List.of(SetUp.SLOW_AGENT, SetUp.PLAIN), all.setUps);
        assertEquals(6, all.rounds);
    }

    @Test
    void badValuesNameTheOptionAndWhatIsAccepted() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RoundsOptions.parse(new String[] {"--demo-jar", "d.jar", "--rounds", "1"}, 4));
        assertTrue(e.getMessage().contains("--rounds '1'") && e.getMessage().contains("2..50"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> RoundsOptions.parse(new String[] {"--demo-jar", "d.jar", "--setups", "agent"}, 4));
        assertTrue(e.getMessage().contains("agent needs --agent"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> RoundsOptions.parse(new String[] {"--demo-jar", "d.jar", "--setups", "fast"}, 4));
        assertTrue(e.getMessage().contains("unknown set-up 'fast'"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> RoundsOptions.parse(new String[] {"--quick"}, 4));
        assertTrue(e.getMessage().contains("--demo-jar"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> RoundsOptions.parse(new String[] {"--demo-jar", "d.jar", "--seconds", "x"}, 4));
        assertTrue(e.getMessage().contains("--seconds 'x'"), e.getMessage());
    }
}
