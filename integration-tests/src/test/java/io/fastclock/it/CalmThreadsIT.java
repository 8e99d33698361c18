package io.fastclock.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fastclock.it.apps.InterruptEveryThreadApp;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Interrupting fastclock's threads never makes them spin (contract: "Never harm the host"). A
 * class-path program ({@link InterruptEveryThreadApp}) interrupts every live thread again and again
 * for a second, as some frameworks do at shutdown, then counts the CPU the process uses in a
 * {@value #IDLE_MILLIS} ms idle window; the same with and without the agent. A thread that loops on
 * a wait with its interrupt flag set uses a whole core for the window (two such threads ran here
 * before the fix), an idle JVM a few clock ticks: the bound, a quarter of the window above the run
 * without the agent, is a count of CPU that separates the two by far, not a speed target.
 *
 * <p>The agent active (mode=on: the TSC anchor thread, the state refresher and the JMX/JFR watcher
 * all run, where the host can have a TSC clock), the defaults (the host's verdict: inactive on a fast
 * machine; the watcher still waits for JMX), the defaults under the slow-clocksource simulator
 * (active), and there with a coarse currentTimeMillis (its lag watch runs). The threads that must
 * keep running are still there after the interrupts.
 */
class CalmThreadsIT {
    static final long INTERRUPT_MILLIS = 500;
    static final long IDLE_MILLIS = 1500;
    /** A quarter of the window: one spinning thread uses about all of it, an idle JVM about nothing. */
    static final long BOUND_MILLIS = IDLE_MILLIS / 4;
    /**
     * What one fastclock thread may use of the window, in clock ticks of 10 ms: a tenth. Its work (a
     * re-anchor, a state refresh) takes a tick or two a second; a thread that polls a quarter of the
     * time, which the process-wide bound lets through, takes 37.
     */
    static final long THREAD_BOUND_TICKS = IDLE_MILLIS / 10 / 10;

    /** The runs without the agent, one per JDK and clocksource (plain or simulated). */
    private static final Map<String, ForkedJvm.Result> WITHOUT = new ConcurrentHashMap<>();

    static List<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        // One JDK: the threads and their waits are the agent's own code, the same on every JDK.
        for (Jdk jdk : Jdk.one()) {
            for (String how : new String[] {"mode=on", "defaults", "simulator", "simulator,millis=coarse"}) {
                out.add(Arguments.of(jdk, how));
            }
        }
        return out;
    }

    private static ForkedJvm app(Jdk jdk, boolean simulator) {
        ForkedJvm jvm = ForkedJvm.on(jdk);
        if (simulator) {
            jvm.slowClocksource(0);
        }
        return jvm.main(InterruptEveryThreadApp.class, Long.toString(INTERRUPT_MILLIS), Long.toString(IDLE_MILLIS));
    }

    private static ForkedJvm.Result without(Jdk jdk, boolean simulator) throws Exception {
        String key = jdk.label + (simulator ? " simulator" : "");
        ForkedJvm.Result r = WITHOUT.get(key);
        if (r == null) {
            r = app(jdk, simulator).withoutAgent().run();
            assertEquals("1", r.value("done"), r.toString());
            WITHOUT.put(key, r);
        }
        return r;
    }

    @ParameterizedTest(name = "{0}, {1}")
    @MethodSource("cases")
    void interruptedThreadsOfTheAgentStayIdle(Jdk jdk, String how) throws Exception {
        boolean simulator = how.startsWith("simulator");
        ForkedJvm jvm = app(jdk, simulator);
        if (how.startsWith("mode=")) {
            jvm.agentArgs(how);
        } else if (how.startsWith("simulator,")) {
            jvm.agentArgs(how.substring("simulator,".length()));
        }
        ForkedJvm.Result with = jvm.run();
        ForkedJvm.Result without = without(jdk, simulator);
        String context = "with the agent (" + how + "):\n" + with + "\nwithout:\n" + without;
        assertEquals(0, with.exitCode, context);
        assertEquals("1", with.value("done"), context);
        long withCpu = with.longValue("idleCpuMillis");
        long withoutCpu = without.longValue("idleCpuMillis");
        System.out.println("[CalmThreadsIT] " + jdk + ", " + how + ": CPU in the " + with.value("idleWallMillis")
                + " ms idle window after " + with.value("rounds") + " rounds of interrupts: " + withCpu
                + " ms with the agent, " + withoutCpu + " ms without; busy threads (ticks): "
                + with.value("busyTasksTicks") + "; fastclock threads before " + with.value("fastclockThreadsBefore")
                + ", after " + with.value("fastclockThreadsAfter"));

        List<String> before = Arrays.asList(with.value("fastclockThreadsBefore").split(","));
        if (!how.equals("defaults")) {
            assertTrue(with.stderr.contains("fastclock: active"), "the agent should be active here\n" + context);
            // Only a host that can have a TSC clock (HostMachine) runs its anchor thread.
            if (HostMachine.hasTscClock()) {
                assertTrue(before.contains("fastclock-tsc-anchor"), "the TSC clock should be running\n" + context);
            }
        }
        // At the defaults on a host whose clocks are fast the entry answers alone: no observer, only the
        // thread that publishes its verdict, which interrupts must leave idle too.
        boolean entryAnswered = how.equals("defaults") && with.stderr.contains("inactive: system clocks are fast here");
        if (entryAnswered) {
            assertTrue(!before.contains("fastclock-observe"), "the entry's answer starts no observer\n" + context);
        } else {
            assertTrue(before.contains("fastclock-observe"), "the watcher should be waiting for JMX\n" + context);
        }
        if (how.endsWith("millis=coarse")) {
            assertTrue(before.contains("fastclock-millis-lag"), "the coarse clock's lag should be watched\n" + context);
        }
        assertTrue(withCpu - withoutCpu < BOUND_MILLIS, "after the interrupts the agent used " + withCpu
                + " ms of CPU in a " + IDLE_MILLIS + " ms idle window, " + withoutCpu + " ms without it: a thread spins\n"
                + context);
        for (String task : with.value("busyTasksTicks").split(",")) {
            // "tid/comm:ticks", comm being the thread's name cut to 15 characters
            int colon = task.lastIndexOf(':');
            if (colon > 0 && task.substring(task.indexOf('/') + 1).startsWith("fastclock")) {
                assertTrue(Long.parseLong(task.substring(colon + 1)) <= THREAD_BOUND_TICKS,
                        "a fastclock thread used more than a tenth of the idle window: " + task + "\n" + context);
            }
        }
        // The threads that must keep running are still there (the anchor thread's death would leave
        // the TSC clock unchecked; the state refresher keeps status and the MBean current).
        List<String> after = Arrays.asList(with.value("fastclockThreadsAfter").split(","));
        for (String name : before) {
            // The entry's publisher ends once it has published, 100 ms in, interrupted or not.
            assertTrue(after.contains(name) || name.equals("fastclock-publish"), name + " ended after the interrupts\n" + context);
        }
    }
}
