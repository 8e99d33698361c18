package io.fastclock.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fastclock.it.apps.LockHolderHookApp;
import io.fastclock.it.apps.SecurityManagerAtMainApp;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A SecurityManager the application installs at main's first instruction (JDK 11-23), after premain
 * looked for one: the JDK asks it on fastclock's threads too, and it walks their stacks for a class whose
 * module java.base exports a JDK-internal package to and whose package is open to it. On a fast machine
 * the entry's publishing thread used to define, 100 ms after premain, its reader of the agent properties
 * in a loader of its own with jdk.internal.vm exported to it: the hook took a lookup into it, which
 * defines a class of the application's holding that export (found by a review of 70b9425; JDK 11, 17,
 * 21). That thread now works under System's class lock, which installing a SecurityManager takes, and
 * only where none is installed. Under the simulator the module, defined while main runs, gets the same
 * hook on its threads, and opens nothing.
 *
 * <p>Proves, in docs/CONTRACT.md: host.no-rights.
 */
class SecurityManagerAtMainIT {
    static List<Jdk> jdks() {
        return Jdk.all().stream().filter(j -> j.feature < 24).collect(Collectors.toList());
    }

    private static ForkedJvm.Result run(ForkedJvm jvm, Jdk jdk) throws Exception {
        if (jdk.feature >= 18) {
            jvm.jvmArg("-Djava.security.manager=allow"); // JDK 18-23 refuse System.setSecurityManager without it
        }
        return jvm.main(SecurityManagerAtMainApp.class, "1500").run();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void onAFastMachineTheHookGetsNoLookupIntoAnExportedLoader(Jdk jdk) throws Exception {
        ForkedJvm.Result r = run(ForkedJvm.on(jdk).agentArgs(Fixtures.fastMachine()), jdk);
        assertEquals(0, r.exitCode, r.toString());
        assertEquals("none", r.value("lookups"), r.toString());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void underTheSimulatorTheModulesThreadsGiveTheHookNoLookupEither(Jdk jdk) throws Exception {
        ForkedJvm.Result r = run(ForkedJvm.on(jdk).slowClocksource(500), jdk);
        assertEquals(0, r.exitCode, r.toString());
        assertNotEquals("none", r.value("fastclockThreadsChecked"), "the hook never ran on fastclock's threads: the test proves nothing\n" + r);
        assertEquals("none", r.value("lookups"), r.toString());
    }

    /**
     * System's class lock is re-entrant: code of the application's running on the thread that holds it
     * (a Properties of its own, put in place by its system class loader before premain) could install a
     * SecurityManager there, under fastclock's own lock, and be asked as the set-up loaders' classes reach
     * java.base. On the premain of 9f7dd92 it did, and defined a class of its own given jdk.internal.misc
     * (found by a review). No property is read under the lock now: the JDK's first lambdas, which read
     * them, come before, with the loader empty. Under the simulator (premain sets the runtime up) and on
     * a fast machine (the publishing thread).
     */
    @ParameterizedTest(name = "{0}, {1}")
    @MethodSource("jdksAndMachines")
    void noCodeOfTheApplicationsRunsUnderFastclocksHoldOfSystemsLock(Jdk jdk, String machine) throws Exception {
        ForkedJvm jvm = ForkedJvm.on(jdk).jvmArg("-Djava.system.class.loader=" + LockHolderHookApp.Loader.class.getName());
        jvm = machine.equals("simulator") ? jvm.slowClocksource(500) : jvm.agentArgs(Fixtures.fastMachine());
        if (jdk.feature >= 18) {
            jvm.jvmArg("-Djava.security.manager=allow");
        }
        ForkedJvm.Result r = jvm.main(LockHolderHookApp.class, "1500").run();
        assertEquals(0, r.exitCode, r.toString());
        assertTrue(r.longValue("readsBesideFastclock") > 0, "the hook never ran beside fastclock: the test proves nothing\n" + r);
        assertEquals("none", r.value("readUnderSystemLock"), r.toString());
        assertEquals("none", r.value("lookups"), r.toString());
    }

    static List<org.junit.jupiter.params.provider.Arguments> jdksAndMachines() {
        List<org.junit.jupiter.params.provider.Arguments> out = new java.util.ArrayList<>();
        for (Jdk jdk : jdks()) {
            out.add(org.junit.jupiter.params.provider.Arguments.of(jdk, "simulator"));
            out.add(org.junit.jupiter.params.provider.Arguments.of(jdk, "fast machine"));
        }
        return out;
    }
}
