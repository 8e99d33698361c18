package io.fastclock.entry;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fastclock.agent.EntryPoint;
import io.fastclock.agent.Handoff;
import java.lang.instrument.Instrumentation;
import java.lang.reflect.Proxy;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The entry (PrivateModule) and the agent's module (io.fastclock.agent.Handoff) share no class but the
 * JDK's: what one writes, the other reads as the same typed values, and nothing else passes.
 */
class HandoffTest {
    private static final Instrumentation INST = (Instrumentation) Proxy.newProxyInstance(HandoffTest.class.getClassLoader(),
            new Class<?>[] {Instrumentation.class}, (proxy, method, args) -> null);
    private static final Function<String, byte[]> JAR = name -> null;

    @Test
    void premainAndAgentmainArriveTyped() {
        Handoff premain = Handoff.read(PrivateModule.agentHandoff(EntryLines.PREMAIN, "mode=on", INST, null, JAR));
        assertEquals(EntryPoint.PREMAIN, premain.entryPoint);
        assertEquals("mode=on", premain.agentArgs);
        assertSame(INST, premain.inst);
        assertFalse(premain.background());
        assertNull(premain.commandLine);

        Handoff agentmain = Handoff.read(PrivateModule.agentHandoff(EntryLines.AGENTMAIN, null, INST, null, JAR));
        assertEquals(EntryPoint.AGENTMAIN, agentmain.entryPoint);
        assertNull(agentmain.agentArgs);
    }

    @Test
    void theBackgroundStartCarriesThePropertiesPremainSaw() {
        Handoff h = Handoff.read(PrivateModule.agentHandoff(EntryLines.PREMAIN, null, INST, Map.of("fastclock.mode", "on"), JAR));
        assertTrue(h.background());
        assertEquals(Map.of("fastclock.mode", "on"), h.propertiesAtPremain);
    }

    @Test
    void mainArrivesWithItsCommandLine() {
        String[] commandLine = {"status", "42"};
        Handoff h = Handoff.read(PrivateModule.commandLineHandoff(commandLine, JAR));
        assertEquals(EntryPoint.MAIN, h.entryPoint);
        assertArrayEquals(commandLine, h.commandLine);
        assertNull(h.inst);
    }

    @Test
    void theEntryPointsAreSpelledAlikeOnBothSides() {
        assertEquals(EntryLines.PREMAIN, EntryPoint.PREMAIN.methodName());
        assertEquals(EntryLines.AGENTMAIN, EntryPoint.AGENTMAIN.methodName());
        assertEquals(EntryLines.MAIN, EntryPoint.MAIN.methodName());
    }

    /** Anything of another layout is refused: older shapes, a forged entry name, wrong types. */
    @Test
    void nothingElsePasses() {
        assertNull(Handoff.read(null));
        assertNull(Handoff.read(new Object[] {"agentmain", "mode=on", INST}));
        assertNull(Handoff.read(new Object[] {"premain", null, INST, Boolean.TRUE, Map.of()}));
        assertNull(Handoff.read(new Object[] {"agentmain\nforged", "mode=on", INST, null}));
        assertNull(Handoff.read(new Object[] {"detach", null, INST, null}));
        assertNull(Handoff.read(new Object[] {"premain", null, "not an Instrumentation", null}));
        assertNull(Handoff.read(new Object[] {"premain", 42, INST, null}));
        assertNull(Handoff.read(new Object[] {"agentmain", null, INST, Map.of()}), "properties come with premain only");
        assertNull(Handoff.read(new Object[] {"main", new String[0], INST, null}));
        assertNull(Handoff.read(new Object[] {"main", "help", null, null}));
        assertNull(Handoff.read(new Object[] {"agentmain", null, INST, null, "not the jar"}), "the jar crosses as the entry's reader");
        assertNull(Handoff.read(new Object[] {"agentmain", null, INST, null, null}));
    }

    /** The jar the entry read is what the module reads from: the same object crosses. */
    @Test
    void theJarCrosses() {
        assertSame(JAR, Handoff.read(PrivateModule.agentHandoff(EntryLines.AGENTMAIN, null, INST, null, JAR)).jar);
        assertSame(JAR, Handoff.read(PrivateModule.commandLineHandoff(new String[0], JAR)).jar);
    }
}
