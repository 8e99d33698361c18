package io.fastclock.rewrite;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import org.junit.jupiter.api.Test;

class ClassFilterTest {
    @Test
    void builtInExclusionsAlwaysApply() {
        ClassFilter f = new ClassFilter(List.of("io.", "java.", "com."), List.of());
        for (String name : List.of("java/lang/String", "jdk/internal/reflect/GeneratedMethodAccessor1",
                "sun/misc/Unsafe", "com/sun/proxy/$Proxy1", "io/fastclock/runtime/FastClock",
                "io/fastclock/shaded/asm/ClassReader", "io/fastclock/jna/JnaCoarseMillis")) {
            assertFalse(f.test(name), name);
            assertFalse(ClockRefs.allClasses().test(name), name);
        }
    }

    @Test
    void defaultsTakeEverythingElse() {
        ClassFilter f = ClockRefs.allClasses();
        assertTrue(f.test("com/example/App"));
        assertTrue(f.test("javax/servlet/Filter"), "javax is not excluded by default");
        assertTrue(f.test("javafx/Foo"), "java/ is a package prefix, not a text prefix");
        assertTrue(f.test("iofastclock/Foo"));
        assertTrue(f.test("Main"));
        assertFalse(f.test(null));
    }

    @Test
    void includesNarrowAndExcludesWin() {
        ClassFilter f = new ClassFilter(List.of("com.example.", "org.acme.Clock"), List.of("com.example.internal."));
        assertTrue(f.test("com/example/App"));
        assertTrue(f.test("org/acme/Clock"));
        assertTrue(f.test("org/acme/Clock$Inner"));
        assertTrue(f.test("org/acme/ClockFactory"), "class prefixes are prefixes");
        assertFalse(f.test("org/acme/Other"));
        assertFalse(f.test("com/example/internal/Timer"));
        assertFalse(f.test("com/other/App"));
    }

    @Test
    void badPrefixesAreNamed() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new ClassFilter(List.of("com/example/"), List.of()));
        assertTrue(e.getMessage().contains("com/example/"), e.getMessage());
        assertTrue(e.getMessage().contains("include"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new ClassFilter(List.of(), List.of(" ")));
        assertTrue(e.getMessage().contains("exclude"), e.getMessage());
    }

    /** Every package of the agent's own classes is excluded: a rewritten agent class could recurse into its own clock. */
    @org.junit.jupiter.api.Test
    void everyPackageOfTheAgentIsExcluded() throws Exception {
        java.nio.file.Path classes = java.nio.file.Paths.get(ClassFilter.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        java.util.Set<String> packages = new java.util.TreeSet<>();
        try (java.util.stream.Stream<java.nio.file.Path> files = java.nio.file.Files.walk(classes.resolve("io/fastclock"))) {
            files.filter(f -> f.toString().endsWith(".class"))
                    .forEach(f -> packages.add(classes.relativize(f.getParent()).toString().replace(java.io.File.separatorChar, '/') + "/"));
        }
        org.junit.jupiter.api.Assertions.assertTrue(packages.size() > 10, packages.toString());
        ClassFilter filter = new ClassFilter(java.util.Collections.emptyList(), java.util.Collections.emptyList());
        for (String p : packages) {
            org.junit.jupiter.api.Assertions.assertFalse(filter.test(p + "Anything"), "not excluded: " + p);
        }
    }
}
