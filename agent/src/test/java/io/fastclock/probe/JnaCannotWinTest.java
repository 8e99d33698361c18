package io.fastclock.probe;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Whether auto loads JNA where the JNI library is missing: only where currentTimeMillis, which JNA alone serves, may lose to it. */
class JnaCannotWinTest {
    @Test
    void aCheapCurrentTimeMillisLeavesJnaUnloadedWhateverNanoTimeCosts() {
        String why = MachineProbe.jnaCannotWin(45);
        assertNotNull(why);
        assertTrue(why.contains("currentTimeMillis costs at most 45 ns"), why);
        assertNotNull(MachineProbe.jnaCannotWin(MachineProbe.JNA_LEAST_NANOS - 1));
    }

    /** Where JNA would win by little or lose (240 ns here, JNA timed at 293 ns), it is not loaded: it could never be unloaded. */
    @Test
    void aCurrentTimeMillisJnaMightNotBeatLeavesJnaUnloaded() {
        assertNotNull(MachineProbe.jnaCannotWin(MachineProbe.JNA_LEAST_NANOS));
        assertNotNull(MachineProbe.jnaCannotWin(240));
        assertNotNull(MachineProbe.jnaCannotWin(MachineProbe.JNA_WORTH_LOADING_NANOS - 1));
    }

    @Test
    void aCurrentTimeMillisJnaIsSureToBeatLoadsIt() {
        assertNull(MachineProbe.jnaCannotWin(MachineProbe.JNA_WORTH_LOADING_NANOS));
        assertNull(MachineProbe.jnaCannotWin(1200));
    }
}
