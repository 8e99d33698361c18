package io.fastclock.rewrite;

import static io.fastclock.rewrite.GeneratedClasses.STUB_MILLIS;
import static io.fastclock.rewrite.GeneratedClasses.STUB_NANOS;
import static org.junit.jupiter.api.Assertions.*;

import io.fastclock.asm.ClockCallRewriter;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.objectweb.asm.Opcodes;

class ClockCallRewriterTest {

    /**
     * Every class-file version from 45 (1.1) to the newest this ASM writes, with stack map frames
     * where the version has them (50+) and, for 50 and later, also without: a frameless class is
     * still legal at 50 (the JVM falls back to the inference verifier) and must come out frameless.
     */
    static Stream<Arguments> versions() {
        List<Arguments> cases = new ArrayList<>();
        cases.add(Arguments.of(Opcodes.V1_1, false));
        for (int major = 46; major <= newestAsmVersion(); major++) {
            if (major >= 50) {
                cases.add(Arguments.of(major, true));
            }
            cases.add(Arguments.of(major, false));
        }
        return cases.stream();
    }

    private static boolean hasStackMapTable(byte[] classFile) {
        return new String(classFile, java.nio.charset.StandardCharsets.ISO_8859_1).contains("StackMapTable");
    }

    /** The class files a JVM accepts: up to its own version, with frames from 51 on. */
    static boolean runtimeCanLoad(GeneratedClasses gen) {
        return gen.major <= 44 + Runtime.version().feature() && (gen.hasFrames() || gen.major <= 50);
    }

    static int newestAsmVersion() {
        int max = 0;
        for (Field f : Opcodes.class.getFields()) {
            if (f.getName().matches("V\\d+") && f.getType() == int.class) {
                try {
                    max = Math.max(max, f.getInt(null));
                } catch (IllegalAccessException e) {
                    throw new AssertionError(e);
                }
            }
        }
        return max;
    }

    private static Map<String, byte[]> rewriteAll(GeneratedClasses gen) {
        Map<String, byte[]> out = new HashMap<>();
        gen.classes.forEach((name, bytes) -> {
            Rewritten r = ClockCallRewriter.rewriteCounting(bytes, ClockRefs.SYSTEM_CLOCKS);
            assertNotNull(r, name + " has clock calls and must be rewritten");
            assertEquals(gen.clockRefs.get(name), r.callSites(), name + ": call sites counted");
            out.put(name, r.bytes());
        });
        return out;
    }

    @ParameterizedTest(name = "class-file major {0}, frames {1}")
    @MethodSource("versions")
    void rewritesEveryClockReferenceAndNothingElse(int version, boolean frames) {
        GeneratedClasses gen = new GeneratedClasses(version, frames);
        Map<String, byte[]> rewritten = rewriteAll(gen);
        for (String name : gen.classes.keySet()) {
            byte[] before = gen.classes.get(name);
            byte[] after = rewritten.get(name);
            ClockRefs orig = ClockRefs.of(before);
            ClockRefs refs = ClockRefs.of(after);
            int expected = gen.clockRefs.get(name);
            if (name.equals(gen.main)) {
                assertEquals(gen.hasFrames(), hasStackMapTable(before), name + ": generator frames");
                assertEquals(gen.hasFrames(), hasStackMapTable(after), name + ": frames kept, none added");
            }
            assertEquals(expected, orig.systemRefs(), name + ": generator count");
            assertEquals(0, refs.systemRefs(), name + ": System clock references left");
            assertEquals(expected, refs.fastClockRefs(), name + ": FastClock references");
            assertEquals(orig.otherSystemCalls, refs.otherSystemCalls, name + ": other System calls untouched");
            // isInterface flags kept: the generator's itfFlag() call is the only true one
            long itfTrue = refs.fastClockItf.stream().filter(b -> b).count();
            assertEquals(gen.hasDefaultMethods() && name.equals(gen.main) ? 1 : 0, itfTrue, name + ": isInterface flags");
            // Everything else identical: the full dump (frames, maxs, debug info) matches once mapped back.
            assertEquals(ClockRefs.text(before), ClockRefs.textMappedBack(after), name + ": only owners changed");
        }
    }

    @ParameterizedTest(name = "class-file major {0}, frames {1}")
    @MethodSource("versions")
    void rewrittenClassesVerify(int version, boolean frames) {
        GeneratedClasses gen = new GeneratedClasses(version, frames);
        Map<String, byte[]> rewritten = rewriteAll(gen);
        ClassLoader loader = new GeneratedClasses.MapLoader(getClass().getClassLoader(), rewritten);
        for (Map.Entry<String, byte[]> e : rewritten.entrySet()) {
            assertEquals("", ClockRefs.verify(gen.classes.get(e.getKey()), loader), e.getKey() + " original");
            assertEquals("", ClockRefs.verify(e.getValue(), loader), e.getKey() + " rewritten");
        }
    }

    @ParameterizedTest(name = "class-file major {0}, frames {1}")
    @MethodSource("versions")
    void rewrittenCodeCallsFastClock(int version, boolean frames) throws Exception {
        GeneratedClasses gen = new GeneratedClasses(version, frames);
        org.junit.jupiter.api.Assumptions.assumeTrue(runtimeCanLoad(gen),
                "this JVM cannot load class-file major " + gen.major + (frames ? "" : " without frames"));
        Map<String, byte[]> rewritten = rewriteAll(gen);

        // 1. Against a stand-in FastClock returning sentinels: every call site must reach it.
        Map<String, byte[]> withStub = new HashMap<>(rewritten);
        withStub.put(ClockReplacements.FAST_CLOCK, GeneratedClasses.stubFastClock());
        Map<String, Long> results = run(gen, new GeneratedClasses.MapLoader(getClass().getClassLoader(), withStub));
        results.forEach((what, value) -> {
            long expected = what.startsWith("M:") ? STUB_MILLIS : what.startsWith("3N:") ? 3 * STUB_NANOS : STUB_NANOS;
            assertEquals(expected, value, what);
        });

        // 2. The originals, in the same kind of loader with the stub present, never reach it.
        Map<String, byte[]> origWithStub = new HashMap<>(gen.classes);
        origWithStub.put(ClockReplacements.FAST_CLOCK, GeneratedClasses.stubFastClock());
        run(gen, new GeneratedClasses.MapLoader(getClass().getClassLoader(), origWithStub)).forEach((what, value) ->
                assertTrue(value != STUB_MILLIS && value != STUB_NANOS && value != 3 * STUB_NANOS, what));

        // 3. Against the real io.fastclock.runtime.FastClock (parent loader): real epoch millis.
        long before = System.currentTimeMillis();
        Map<String, Long> real = run(gen, new GeneratedClasses.MapLoader(getClass().getClassLoader(), rewritten));
        long after = System.currentTimeMillis();
        real.forEach((what, value) -> {
            if (what.startsWith("M:")) {
                assertTrue(value >= before - 1 && value <= after + 1, what + " = " + value);
            }
        });
    }

    /**
     * Calls every generated entry point. Keys: "M:" for millis results, "N:" for nanos, "3N:" for the
     * loop summing three nanoTime() calls.
     */
    static Map<String, Long> run(GeneratedClasses gen, ClassLoader loader) throws Exception {
        Map<String, Long> out = new java.util.TreeMap<>();
        Class<?> c = Class.forName(gen.main.replace('/', '.'), true, loader);
        out.put("M:<clinit>", c.getField("AT_INIT").getLong(null));
        Object instance = c.getConstructor().newInstance();
        out.put("N:<init>", c.getField("atNew").getLong(instance));
        out.put("M:millis", call(c, "millis"));
        out.put("3N:loop", (Long) c.getMethod("loop", int.class).invoke(null, 3));
        out.put("M:pick(true)", (Long) c.getMethod("pick", boolean.class).invoke(null, true));
        out.put("N:pick(false)", (Long) c.getMethod("pick", boolean.class).invoke(null, false));
        int[] dst = new int[2];
        c.getMethod("copy", int[].class, int[].class).invoke(null, new int[] {7, 8}, dst);
        assertArrayEquals(new int[] {7, 8}, dst, "System.arraycopy still works");
        if (gen.hasIndy()) {
            out.put("M:ldcHandle", call(c, "ldcHandle"));
        }
        if (gen.hasDefaultMethods()) {
            out.put("M:viaRef", call(c, "viaRef"));
            out.put("N:viaLambda", call(c, "viaLambda"));
            Class<?> i = Class.forName(gen.iface.replace('/', '.'), true, loader);
            out.put("M:default", (Long) i.getMethod("dm").invoke(instance));
            out.put("N:interface static", call(i, "sm"));
        }
        if (gen.hasCondy()) {
            out.put("N:condy", call(c, "condy"));
            out.put("M:condyNested", call(c, "condyNested"));
        }
        return out;
    }

    private static long call(Class<?> c, String name) throws Exception {
        Method m = c.getMethod(name);
        assertTrue(Modifier.isStatic(m.getModifiers()));
        try {
            return (Long) m.invoke(null);
        } catch (InvocationTargetException e) {
            throw new AssertionError(c.getName() + "." + name + " threw", e.getCause());
        }
    }

    @Test
    void unchangedClassesReturnNull() {
        GeneratedClasses gen = new GeneratedClasses(Opcodes.V1_8);
        byte[] main = gen.classes.get(gen.main);
        // A class already rewritten has no System clock reference left: nothing to do.
        byte[] once = ClockRefs.rewrite(main);
        assertNotNull(once);
        assertNull(ClockRefs.rewrite(once), "already rewritten: no System clock left");
    }

    @Test
    void concurrentRewritesAgree() {
        GeneratedClasses gen = new GeneratedClasses(Opcodes.V17);
        byte[] main = gen.classes.get(gen.main);
        String expected = ClockRefs.text(ClockRefs.rewrite(main));
        List<String> texts = new ArrayList<>(IntStream.range(0, 64).parallel()
                .mapToObj(i -> ClockRefs.text(ClockRefs.rewrite(main)))
                .collect(java.util.stream.Collectors.toList()));
        texts.forEach(t -> assertEquals(expected, t));
    }
}
