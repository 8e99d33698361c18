package io.fastclock.nativelib;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fastclock.runtime.MillisClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The jna-coarse backend: JNA in a private loader, loaded from a private directory, reading epoch millis. */
class JnaLoaderTest {
    @TempDir
    static Path temp;

    static JnaLoader.Result result;
    static Path jnaSharedTmp;

    @BeforeAll
    static void load() {
        // Where JNA would unpack (or clean up) if it ever used its shared temporary directory.
        jnaSharedTmp = temp.resolve("jna-shared");
        System.setProperty("jna.tmpdir", jnaSharedTmp.toString());
        try {
            result = JnaLoader.loadFresh(ExtractionRoot.of(temp), MillisClock.class.getClassLoader(), JnaLoader.NO_EXPORT_NEEDED);
        } finally {
            System.clearProperty("jna.tmpdir");
        }
    }

    @Test
    void loadsAClock() {
        assertTrue(result.available(), String.valueOf(result.problem));
        assertNull(result.problem);
        assertEquals("jna-coarse", result.clock.name());
    }

    @Test
    void theAdapterIsAModuleOfItsOwnBesideJnaWhoseLoadersParentIsTheRuntimesLoader() {
        Class<?> adapter = result.clock.getClass();
        assertEquals(JnaLoader.ADAPTER, adapter.getName());
        assertEquals(JnaModule.ADAPTER, adapter.getModule().getName());
        assertNotSame(JnaLoader.class.getClassLoader(), adapter.getClassLoader());
        assertSame(MillisClock.class.getClassLoader(), adapter.getClassLoader().getParent());
        // MillisClock comes from the parent: the adapter really is one of the runtime's clocks.
        assertSame(MillisClock.class, adapter.getSuperclass());
    }

    /** JNA exports its API to the adapter alone and opens nothing: whoever gets its loader gets nothing to call. */
    @Test
    void jnaIsSealed() throws Exception {
        ClassLoader own = JnaLoader.class.getClassLoader();
        assertThrows(ClassNotFoundException.class, () -> Class.forName("com.sun.jna.Native", false, own));
        Class<?> nativeClass = Class.forName("com.sun.jna.Native", false, result.clock.getClass().getClassLoader());
        Module jna = nativeClass.getModule();
        Module adapter = result.clock.getClass().getModule();
        assertEquals(JnaModule.JNA, jna.getName());
        assertFalse(jna.getLayer() == ModuleLayer.boot());
        assertFalse(jna.getDescriptor().isAutomatic() || jna.getDescriptor().isOpen(), "an explicit descriptor");
        for (String pkg : jna.getPackages()) {
            assertFalse(jna.isExported(pkg) || jna.isOpen(pkg), pkg + " exported or open to everyone");
        }
        // Here the agent is on the class path, to which JNA's internal package is opened (for the cleaner):
        // under -javaagent it is the agent's own module. The API is the adapter's alone.
        assertFalse(jna.isExported(JnaModule.JNA, getClass().getModule()), "the API exported to the class path");
        assertTrue(jna.isExported(JnaModule.JNA, adapter));
        assertFalse(adapter.isExported(JnaModule.ADAPTER) || adapter.isOpen(JnaModule.ADAPTER), "the adapter to everyone");
        assertThrows(IllegalAccessException.class, () -> nativeClass.getMethod("getLibraryOptions", Class.class).invoke(null, Object.class));
        // The adapter is not in the agent jar's root, only its bytes under META-INF/fastclock/jna/.
        assertNotNull(JnaLoader.class.getResource(JnaLoader.CLASSES_RESOURCE + "io/fastclock/jna/JnaCoarseMillis.class"));
        assertNotNull(JnaLoader.class.getResource(JnaLoader.JAR_RESOURCE));
    }

    /** No thread of JNA's (its cleaner's) hands anyone JNA's loader. */
    @Test
    void jnaRunsNoThread() {
        ClassLoader jna = result.clock.getClass().getClassLoader();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            assertFalse(t.getClass().getClassLoader() == jna || t.getContextClassLoader() == jna, t.toString());
        }
    }

    private static void assertNotNull(Object o) {
        assertFalse(o == null, "missing resource");
    }

    @Test
    void readsEpochMillisWithinTheCoarseLag() {
        for (int i = 0; i < 1000; i++) {
            long before = System.currentTimeMillis();
            long read = result.clock.currentTimeMillis();
            long after = System.currentTimeMillis();
            assertTrue(read >= before - 20 && read <= after + 1,
                    "jna-coarse read " + read + " outside [" + (before - 20) + ", " + (after + 1) + "]");
        }
    }

    @Test
    void measuresAndReportsTheCoarseResolution() {
        long res = result.coarseResolutionNanos();
        assertTrue(res > 0 && res <= 10_000_000L, "resolution " + res);
        double ns = result.nanosPerCall(5, 3, 1000);
        assertTrue(ns > 0 && ns < 100_000, "ns per call " + ns);
    }

    @Test
    void leavesNoFilesNoPropertiesAndNothingInJnasSharedDirectory() throws Exception {
        try (Stream<Path> left = Files.list(temp)) {
            assertEquals(0, left.filter(p -> p.getFileName().toString().startsWith("fastclock-")).count(),
                    "the private directory was not removed");
        }
        assertFalse(Files.exists(jnaSharedTmp), "JNA used its shared temporary directory");
        for (String key : JnaLoader.JNA_PROPERTIES) {
            assertNull(System.getProperty(key), key + " was left set");
        }
    }
}
