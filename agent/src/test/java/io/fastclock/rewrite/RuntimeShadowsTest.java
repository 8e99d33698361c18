package io.fastclock.rewrite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RuntimeShadowsTest {
    /** Answers every name with a class of its own (String here), as a loader holding a shadow would. */
    private static final class Answering extends ClassLoader {
        Answering(ClassLoader parent) {
            super(parent);
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            return name.startsWith("io.fastclock.runtime.") ? String.class : super.loadClass(name, resolve);
        }
    }

    /** A definition the transformer refused leaves no class behind: said once per loader, nothing shadowed. */
    @Test
    void aRefusedDefinitionIsSaidOncePerLoader() {
        List<String> lines = new ArrayList<>();
        RuntimeShadows shadows = new RuntimeShadows(lines::add);
        ClassLoader holder = new ClassLoader(getClass().getClassLoader()) {};
        shadows.refused(holder, "io/fastclock/runtime/FastClock");
        shadows.refused(holder, "io/fastclock/boot/ClockRegistry");
        shadows.refused(null, "io/fastclock/runtime/Other");
        shadows.refused(null, "io/fastclock/runtime/Other2");
        assertEquals(2, lines.size(), lines.toString());
        assertTrue(lines.get(0).contains("io.fastclock.runtime.FastClock") && lines.get(0).startsWith("refused"), lines.get(0));
        assertTrue(lines.get(1).contains("the boot loader"), lines.get(1));
        assertFalse(shadows.shadowed(holder, "com/acme/App"), "the definition failed: nothing there to link to");
    }

    @Test
    void aLoaderAnsweringTheRuntimesNameWithAnotherClassIsShadowed() {
        List<String> lines = new ArrayList<>();
        RuntimeShadows shadows = new RuntimeShadows(lines::add);
        ClassLoader answering = new Answering(getClass().getClassLoader());
        shadows.pin(getClass().getClassLoader(), RuntimeShadowsTest.class);
        assertFalse(shadows.shadowed(getClass().getClassLoader(), "com/acme/App"), "answers with the class itself");
        shadows.pin(answering, FakeRuntime.class);
        assertFalse(shadows.shadowed(answering, "com/acme/App"), "FakeRuntime is not in the runtime's package");
        assertTrue(lines.isEmpty(), lines.toString());
    }

    /**
     * A loaded class of a runtime package outside the boot loader (this test's own class, in
     * io.fastclock.rewrite on the class path, plays it) shadows its loader and those below it, said once.
     */
    @Test
    void loadedClassesOfTheRuntimesPackagesOutsideTheBootLoaderShadowTheirLoaders() {
        List<String> lines = new ArrayList<>();
        RuntimeShadows shadows = new RuntimeShadows(lines::add);
        ClassLoader app = getClass().getClassLoader();
        ClassLoader child = new ClassLoader(app) {};
        shadows.noteLoaded(new Class<?>[] {String.class, RuntimeShadowsTest.class, RuntimeShadows.class});
        assertEquals(1, lines.size(), lines.toString());
        assertTrue(lines.get(0).contains("io.fastclock.rewrite.RuntimeShadowsTest"), lines.get(0));
        assertTrue(shadows.shadowed(app, "com/acme/App"));
        assertTrue(shadows.shadowed(child, "com/acme/App"), "a loader below delegates to the shadow");
        assertFalse(shadows.shadowed(ClassLoader.getPlatformClassLoader(), "com/acme/App"));
        assertFalse(shadows.shadowed(null, "com/acme/App"), "the boot loader holds the real one");
    }

    static final class FakeRuntime {}
}
