package io.fastclock.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fastclock.it.apps.HookedPropertiesApp;
import io.fastclock.it.apps.theft.FakeJarSnapshot;
import io.fastclock.it.apps.theft.FakeRuntimeSetup;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Application code on fastclock's threads (a Properties of its own that the agent's threads read, put
 * in place by the application's system class loader before premain) holds classes of the agent's module
 * and of the entry's helpers: neither leads it to the bytes the module's classes are defined from, nor
 * to a reader of the module's. At 95aff91 the module's reference handed out a reader over those bytes,
 * and a lookup into its open package wrote them. Under the simulator, so that the module is defined and
 * decides while main runs (the defaults); JDK 25 with the hardened flags too, and before JDK 24 a
 * SecurityManager of the application's, which the JDK asks on every thread (JDK 11's reflective
 * export once asked it from premain's set-up loader). The application's main
 * can put the same hook in place, racing the agent's thread; its system class loader makes it certain
 * (docs/ISOLATION.md lists what such a loader can do that no agent stops: this is not that).
 */
class HookedPropertiesIT {
    @TempDir
    Path temp;

    static List<Jdk> jdks() {
        return Jdk.all();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void codeOnTheAgentsThreadsReachesNoneOfTheJarsBytes(Jdk jdk) throws Exception {
        ForkedJvm jvm = ForkedJvm.on(jdk).slowClocksource(500)
                .jvmArg("-Djava.system.class.loader=" + HookedPropertiesApp.Loader.class.getName())
                .jvmArg(jdk.hardenedFlags().toArray(new String[0]));
        if (jdk.feature < 24) {
            // A SecurityManager of the application's too: the JDK asks it from premain on, on every thread.
            jvm.jvmArg("-Djava.security.manager=" + HookedPropertiesApp.Guard.class.getName());
        }
        ForkedJvm.Result r = jvm.main(HookedPropertiesApp.class).run();
        assertEquals(0, r.exitCode, r.toString());
        assertEquals("true", r.value("moduleClassSeen"), "the hook never held a class of the module: the test proves nothing\n" + r);
        assertEquals("true", r.value("entryHelperSeen"), "the hook never held an entry helper: the test proves nothing\n" + r);
        assertEquals("none", r.value("bytesReached"), r.toString());
        assertEquals("none", r.value("setupClassesSeen"), "a class of the loader java.base exports jdk.internal.misc to\n" + r);
    }

    /**
     * The same hook, holding a helper of the entry during premain's first step, defines a class of its own
     * under the name of a helper premain defines only for its second step (RuntimeSetup: its install is
     * handed the Instrumentation), through a lookup into the helpers' open package. The entry defines every
     * helper it will use before calling any: the name taken makes its own definition fail, and the agent
     * stays off; a helper defined only when first asked for would have been the application's.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void aHelperNameTakenDuringPremainStopsTheAgentAndIsNeverCalled(Jdk jdk) throws Exception {
        Path fake = temp.resolve("RuntimeSetup.class");
        Files.write(fake, RenamedClasses.renamed(FakeRuntimeSetup.class, Map.of(
                RenamedClasses.internalName(FakeRuntimeSetup.class), "io/fastclock/entry/RuntimeSetup",
                RenamedClasses.internalName(FakeJarSnapshot.class), "io/fastclock/entry/JarSnapshot")));
        ForkedJvm.Result r = ForkedJvm.on(jdk).slowClocksource(500).programEndsFirst()
                .jvmArg("-Djava.system.class.loader=" + HookedPropertiesApp.Loader.class.getName(), "-Dhook.fake=" + fake)
                .jvmArg(jdk.hardenedFlags().toArray(new String[0]))
                .main(HookedPropertiesApp.class).run();
        assertEquals(0, r.exitCode, r.toString());
        assertEquals("true", r.value("fakeDefined"), "the hook could not define the fake: the test proves nothing\n" + r);
        assertEquals("false", r.value("stolen"), r.toString());
        assertTrue(r.stderr.contains("fastclock: agent not started"), "the agent went on beside the fake\n" + r);
    }
}
