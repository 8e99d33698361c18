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

    @Test
    void aDearCurrentTimeMillisMayLoseToJna() {
        assertNull(MachineProbe.jnaCannotWin(MachineProbe.JNA_LEAST_NANOS));
        assertNull(MachineProbe.jnaCannotWin(1200));
    }
}
