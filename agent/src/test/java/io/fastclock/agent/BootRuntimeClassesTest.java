package io.fastclock.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fastclock.rewrite.ClockReplacements;
import io.fastclock.runtime.FastClock;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;

/**
 * {@link BootstrapInjector#RUNTIME_CLASSES} is written by hand, in the order the classes must be
 * defined; this checks it against what javac made of io.fastclock.runtime. A class of the package
 * left off the list is in neither the boot loader nor the agent's module (entry.PrivateModule leaves
 * the package out of the module), so the first call that needs it fails with NoClassDefFoundError;
 * an anonymous class added to SystemClocks is the easy way there.
 */
class BootRuntimeClassesTest {
    private static final String PACKAGE = BootstrapInjector.RUNTIME_PACKAGE.replace('.', '/') + "/";
    private static final Pattern AGENT_NAME = Pattern.compile("io/fastclock/[A-Za-z0-9_/$]+");

    @Test
    void theListNamesEveryCompiledClassOfTheBootPackageAndNoOther() throws IOException {
        Set<String> compiled = compiledRuntimeClasses();
        Set<String> listed = new TreeSet<>(Arrays.asList(BootstrapInjector.RUNTIME_CLASSES));
        Set<String> missing = new TreeSet<>(compiled);
        missing.removeAll(listed);
        Set<String> gone = new TreeSet<>(listed);
        gone.removeAll(compiled);
        assertTrue(missing.isEmpty() && gone.isEmpty(), "BootstrapInjector.RUNTIME_CLASSES misses " + missing
                + " and names " + gone + ", which javac did not make");
        assertEquals(listed.size(), BootstrapInjector.RUNTIME_CLASSES.length, "a class named twice");
    }

    @Test
    void everySupertypeIsDefinedBeforeItsSubtypes() throws IOException {
        List<String> order = Arrays.asList(BootstrapInjector.RUNTIME_CLASSES);
        for (int i = 0; i < order.size(); i++) {
            ClassReader r = new ClassReader(bytes(order.get(i)));
            List<String> supertypes = new ArrayList<>(Arrays.asList(r.getInterfaces()));
            supertypes.add(r.getSuperName());
            for (String s : supertypes) {
                if (s != null && s.startsWith(PACKAGE)) {
                    int at = order.indexOf(s.substring(PACKAGE.length()));
                    assertTrue(at >= 0 && at < i, order.get(i) + " is defined before its supertype " + s);
                }
            }
        }
    }

    /** The boot loader sees nothing of the agent: the runtime names only itself (and the JDK). */
    @Test
    void theBootRuntimeNamesNoClassOutsideItself() throws IOException {
        List<String> outside = new ArrayList<>();
        for (String c : BootstrapInjector.RUNTIME_CLASSES) {
            Matcher m = AGENT_NAME.matcher(new String(bytes(c), StandardCharsets.ISO_8859_1));
            while (m.find()) {
                String name = m.group();
                if (!name.startsWith(PACKAGE) || name.indexOf('/', PACKAGE.length()) >= 0
                        || !Arrays.asList(BootstrapInjector.RUNTIME_CLASSES).contains(name.substring(PACKAGE.length()))) {
                    outside.add(c + " names " + name);
                }
            }
        }
        assertTrue(outside.isEmpty(), String.join("\n", outside));
    }

    /**
     * The JNA adapter is defined by a loader that sees only the runtime's loader and JNA
     * (nativelib.JnaLoader): it too may name no other class of the agent (its backend name is a
     * constant javac copies in).
     */
    @Test
    void theJnaAdapterNamesOnlyTheRuntime() throws IOException {
        byte[] adapter;
        try (java.io.InputStream in = BootRuntimeClassesTest.class.getResourceAsStream("/io/fastclock/jna/JnaCoarseMillis.class")) {
            adapter = in.readAllBytes();
        }
        List<String> outside = new ArrayList<>();
        Matcher m = AGENT_NAME.matcher(new String(adapter, StandardCharsets.ISO_8859_1));
        while (m.find()) {
            if (!m.group().startsWith(PACKAGE) && !m.group().startsWith("io/fastclock/jna/")) {
                outside.add(m.group());
            }
        }
        assertTrue(outside.isEmpty(), "JnaCoarseMillis names " + outside);
    }

    /** What rewritten call sites link to is in the list. */
    @Test
    void theRewritesTargetIsABootClass() {
        assertTrue(ClockReplacements.FAST_CLOCK.startsWith(PACKAGE), ClockReplacements.FAST_CLOCK);
        assertTrue(Arrays.asList(BootstrapInjector.RUNTIME_CLASSES)
                .contains(ClockReplacements.FAST_CLOCK.substring(PACKAGE.length())), ClockReplacements.FAST_CLOCK);
    }

    private static Path runtimeDirectory() {
        try {
            return Paths.get(FastClock.class.getResource("FastClock.class").toURI()).getParent();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Set<String> compiledRuntimeClasses() throws IOException {
        Set<String> out = new TreeSet<>();
        try (Stream<Path> files = Files.list(runtimeDirectory())) {
            files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".class"))
                    .forEach(n -> out.add(n.substring(0, n.length() - ".class".length())));
        }
        assertTrue(out.contains("FastClock"), "the compiled runtime was not found: " + out);
        return out;
    }

    private static byte[] bytes(String simpleName) throws IOException {
        return Files.readAllBytes(runtimeDirectory().resolve(simpleName + ".class"));
    }
}
