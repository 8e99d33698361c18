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

    @Test
    void aLoaderDefiningARuntimeNameIsShadowedWithTheLoadersBelowItAndSaidOnce() {
        List<String> lines = new ArrayList<>();
        RuntimeShadows shadows = new RuntimeShadows(lines::add);
        ClassLoader holder = new ClassLoader(getClass().getClassLoader()) {};
        ClassLoader child = new ClassLoader(holder) {};
        ClassLoader sibling = new ClassLoader(getClass().getClassLoader()) {};

        assertFalse(shadows.shadowed(holder, "com/acme/App"));
        assertTrue(shadows.shadowed(holder, "io/fastclock/runtime/FastClock"), "the shadow itself is left alone");
        assertTrue(shadows.shadowed(holder, "io/fastclock/runtime/Other"));
        assertTrue(shadows.shadowed(holder, "com/acme/App"));
        assertTrue(shadows.shadowed(child, "com/acme/App"), "a loader below delegates to the shadow");
        assertFalse(shadows.shadowed(sibling, "com/acme/App"));
        assertFalse(shadows.shadowed(null, "io/fastclock/runtime/FastClock"), "the boot loader holds the real one");
        assertEquals(1, lines.size(), lines.toString());
        assertTrue(lines.get(0).contains("io.fastclock.runtime.FastClock"), lines.get(0));
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

    @Test
    void loadedClassesOfTheRuntimesPackageOutsideTheBootLoaderAreNoted() {
        List<String> lines = new ArrayList<>();
        RuntimeShadows shadows = new RuntimeShadows(lines::add);
        shadows.noteLoaded(new Class<?>[] {String.class, RuntimeShadowsTest.class});
        assertTrue(lines.isEmpty(), lines.toString());
        assertFalse(shadows.shadowed(getClass().getClassLoader(), "com/acme/App"));
    }

    static final class FakeRuntime {}
}
