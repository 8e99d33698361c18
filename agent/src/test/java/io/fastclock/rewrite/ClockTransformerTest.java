package io.fastclock.rewrite;

import static org.junit.jupiter.api.Assertions.*;
import static org.objectweb.asm.Opcodes.*;

import io.fastclock.runtime.FastClock;
import io.fastclock.runtime.SystemClocks;
import java.lang.instrument.ClassFileTransformer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;

class ClockTransformerTest {
    private final RewriteStats stats = new RewriteStats();
    private final List<String> events = Collections.synchronizedList(new ArrayList<>());
    private final RewriteListener listener = new RewriteListener() {
        @Override
        public void rewritten(String className, int callSites) {
            events.add("rewritten " + className + " " + callSites);
        }

        @Override
        public void failed(String className, Throwable t) {
            events.add("failed " + className + " " + t);
        }
    };
    private final ClockTransformer transformer =
            ClockRefs.transformer(ClockRefs.allClasses(), stats, listener, m -> false);

    private final GeneratedClasses gen = new GeneratedClasses(V11);
    private final byte[] clockClass = gen.classes.get(gen.main);

    /** A class whose only System use is the given call (or none). */
    private static byte[] classCalling(String name, String systemMethod, String desc, String fieldDesc) {
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        cw.visit(V11, ACC_PUBLIC | ACC_SUPER, name, null, "java/lang/Object", null);
        if (fieldDesc != null) {
            cw.visitField(ACC_PUBLIC | ACC_STATIC, "f", fieldDesc, null, null).visitEnd();
        }
        MethodVisitor mv = cw.visitMethod(ACC_PUBLIC | ACC_STATIC, "m", "()V", null, null);
        mv.visitCode();
        if (systemMethod != null) {
            mv.visitMethodInsn(INVOKESTATIC, "java/lang/System", systemMethod, desc, false);
            mv.visitInsn(desc.endsWith("J") ? POP2 : POP);
        }
        mv.visitInsn(RETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
        cw.visitEnd();
        return cw.toByteArray();
    }

    private byte[] transform(String name, byte[] bytes) throws Exception {
        return ((ClassFileTransformer) transformer).transform(null, name, null, null, bytes);
    }

    @Test
    void rewritesAClassWithClockCalls() throws Exception {
        byte[] out = transform(gen.main, clockClass);
        assertNotNull(out);
        assertEquals(0, ClockRefs.of(out).systemRefs());
        int sites = gen.clockRefs.get(gen.main);
        assertEquals(sites, ClockRefs.of(out).fastClockRefs());
        assertEquals(1, stats.scanned());
        assertEquals(1, stats.parsed());
        assertEquals(1, stats.rewritten());
        assertEquals(sites, stats.callSites());
        assertEquals(0, stats.failures());
        assertNull(stats.firstFailure());
        assertEquals(List.of("rewritten " + gen.main + " " + sites), events);
    }

    @Test
    void classMentioningSystemWithoutClockCallsIsParsedButUnchanged() throws Exception {
        byte[] noClock = classCalling("t/Sep", "lineSeparator", "()Ljava/lang/String;", null);
        assertTrue(transformer.mayCallClocks(noClock));
        assertNull(transform("t/Sep", noClock));
        // the generated classes also call System.arraycopy; that call survives a rewrite untouched
        assertEquals(List.of("arraycopy(Ljava/lang/Object;ILjava/lang/Object;II)V"),
                ClockRefs.of(transform(gen.main, clockClass)).otherSystemCalls);
        assertEquals(2, stats.scanned());
        assertEquals(2, stats.parsed());
        assertEquals(1, stats.rewritten());
        assertEquals(0, stats.failures());
        assertEquals(1, events.size());
    }

    @Test
    void systemClockCallsWithAnotherDescriptorAreNotTouched() throws Exception {
        // a class calling a (nonexistent) System.nanoTime(I)J: not the clock, left alone
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        cw.visit(V11, ACC_PUBLIC | ACC_SUPER, "t/Odd", null, "java/lang/Object", null);
        MethodVisitor mv = cw.visitMethod(ACC_PUBLIC | ACC_STATIC, "m", "()J", null, null);
        mv.visitCode();
        mv.visitInsn(ICONST_1);
        mv.visitMethodInsn(INVOKESTATIC, "java/lang/System", "nanoTime", "(I)J", false);
        mv.visitInsn(LRETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
        cw.visitEnd();
        assertNull(transform("t/Odd", cw.toByteArray()));
        assertEquals(1, stats.parsed());
        assertEquals(0, stats.rewritten());
    }

    @Test
    void classesNotNamingSystemAreNeverParsed() throws Exception {
        assertNull(transform("t/Plain", classCalling("t/Plain", null, null, null)));
        // a descriptor mentioning System is not a reference to the class
        assertNull(transform("t/Desc", classCalling("t/Desc", null, null, "Ljava/lang/System;")));
        assertEquals(2, stats.scanned());
        assertEquals(0, stats.parsed());
        assertEquals(0, stats.rewritten());
    }

    @Test
    void retransformationsAreRewrittenLikeLoads() throws Exception {
        // Classes loaded before the agent are reached by retransformation; another agent's
        // retransformation of a rewritten class must keep the rewrite.
        byte[] out = transformer.transform(null, gen.main, String.class, null, clockClass);
        assertNotNull(out, "retransformation");
        assertEquals(1, stats.rewritten());
    }

    @Test
    void nullsAndExclusionsAreLeftAlone() throws Exception {
        assertNull(transformer.transform(null, null, null, null, clockClass));
        assertNull(transformer.transform(null, gen.main, null, null, null));
        assertNull(transform("java/util/Timer", clockClass));
        assertNull(transform("io/fastclock/shaded/asm/ClassReader", clockClass));
        assertEquals(2, stats.excluded());
        assertEquals(0, stats.scanned());

        RewriteStats narrowedStats = new RewriteStats();
        ClockTransformer narrowed = ClockRefs.transformer(
                new ClassFilter(List.of("com.example."), List.of("com.example.skip.")), narrowedStats, null, m -> false);
        assertNull(narrowed.transform(null, gen.main, null, null, clockClass));
        assertNull(narrowed.transform(null, "com/example/skip/X", null, null, clockClass));
        assertNotNull(narrowed.transform(null, "com/example/X", null, null, clockClass));
        assertEquals(2, narrowedStats.excluded());
        assertEquals(1, narrowedStats.rewritten());
    }

    @Test
    void brokenClassFilesAreCountedNotThrown() throws Exception {
        // truncated: still holds the java/lang/System constant, so it gets past the byte check
        int cut = ClassBytes.indexOf(clockClass, 0, true, ClassBytes.asciiNames("java/lang/System")[0]) + 40;
        byte[] truncated = Arrays.copyOf(clockClass, cut);
        assertTrue(transformer.mayCallClocks(truncated));
        assertNull(transform("t/Truncated", truncated));

        // garbage with the constant in it
        byte[] garbage = new byte[64];
        Arrays.fill(garbage, (byte) 0xCA);
        garbage[20] = 1;
        garbage[21] = 0;
        garbage[22] = 16;
        System.arraycopy("java/lang/System".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1), 0, garbage, 23, 16);
        assertNull(transform("t/Garbage", garbage));

        // a class-file version newer than this ASM reads
        byte[] tooNew = clockClass.clone();
        tooNew[6] = 0x7F;
        tooNew[7] = 0x00;
        assertNull(transform("t/TooNew", tooNew));

        assertEquals(3, stats.failures());
        assertEquals(0, stats.rewritten());
        assertTrue(stats.firstFailure().startsWith("t/Truncated: "), stats.firstFailure());
        assertEquals(3, events.size());
        assertTrue(events.get(0).startsWith("failed t/Truncated "), events.get(0));
        assertTrue(events.get(2).contains("Unsupported class file major version"), events.get(2));
    }

    @Test
    void aThrowingListenerDoesNotBreakLoading() throws Exception {
        RewriteListener bad = new RewriteListener() {
            @Override
            public void rewritten(String className, int callSites) {
                throw new IllegalStateException("listener bug");
            }

            @Override
            public void failed(String className, Throwable t) {
                throw new IllegalStateException("listener bug");
            }
        };
        RewriteStats badStats = new RewriteStats();
        ClockTransformer t = ClockRefs.transformer(ClockRefs.allClasses(), badStats, bad, m -> false);
        assertNotNull(t.transform(null, gen.main, null, null, clockClass));
        assertNull(t.transform(null, "t/Bad", null, null, Arrays.copyOf(clockClass, 200)));
        assertEquals(1, badStats.rewritten());
        assertEquals(1, badStats.failures());
    }

    @Test
    void namedModulesNeedTheGate() throws Exception {
        Module named = Object.class.getModule(); // any named module will do
        assertTrue(named.isNamed());
        assertNull(transformer.transform(named, null, gen.main, null, null, clockClass), "default gate refuses");
        assertEquals(1, stats.skippedNamedModule());
        assertEquals(0, stats.rewritten());

        List<Module> asked = new ArrayList<>();
        ClockTransformer open = ClockRefs.transformer(ClockRefs.allClasses(), new RewriteStats(), null,
                m -> asked.add(m));
        assertNotNull(open.transform(named, null, gen.main, null, null, clockClass));
        assertEquals(List.of(named), asked);
        // unnamed modules, and classes with nothing to rewrite, never ask
        Module unnamed = getClass().getClassLoader().getUnnamedModule();
        assertNotNull(open.transform(unnamed, null, gen.main, null, null, clockClass));
        assertNull(open.transform(named, null, "t/Plain", null, null, classCalling("t/Plain", null, null, null)));
        assertEquals(1, asked.size());
    }

    @Test
    void countsStayExactUnderConcurrency() throws Exception {
        byte[] plain = classCalling("t/Plain", null, null, null);
        byte[] broken = Arrays.copyOf(clockClass, 200);
        int perThread = 300;
        int threads = 4;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<?>> futures = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            futures.add(pool.submit(() -> {
                for (int i = 0; i < perThread; i++) {
                    assertNotNull(transformer.transform(null, gen.main, null, null, clockClass));
                    assertNull(transformer.transform(null, "t/Plain", null, null, plain));
                    assertNull(transformer.transform(null, "t/Broken", null, null, broken));
                }
                return null;
            }));
        }
        for (Future<?> f : futures) {
            f.get(60, TimeUnit.SECONDS);
        }
        pool.shutdown();
        long n = (long) perThread * threads;
        assertEquals(3 * n, stats.scanned());
        assertEquals(2 * n, stats.parsed());
        assertEquals(n, stats.rewritten());
        assertEquals(n * gen.clockRefs.get(gen.main), stats.callSites());
        assertEquals(n, stats.failures());
        assertTrue(stats.firstFailure().startsWith("t/Broken: "));
    }

    /**
     * A definition of a class named like the runtime's, by any loader, is refused (it would take a name
     * a rewritten call site links to); a retransformation of one keeps its bytes.
     */
    @Test
    void definitionsOfTheRuntimesNamesAreRefused() throws Exception {
        List<String> said = new ArrayList<>();
        ClockTransformer t = new ClockTransformer(new ClockTransformer.Scope(ClockRefs.allClasses(), JdkScope.TIME,
                ClockReplacements.all()), new RewriteStats(), new RewriteStats(), null, m -> false, new RuntimeShadows(said::add),
                FastClock.class);
        ClassLoader loader = new ClassLoader(null) {};
        for (String name : new String[] {"io/fastclock/runtime/FastClock", "io/fastclock/rewrite/Anything",
            "io/fastclock/boot/ClockRegistry"}) {
            byte[] refused = t.transform(loader, name, null, null, clockClass);
            assertNotNull(refused, name);
            assertThrows(ClassFormatError.class, () -> new Definer().define(refused), name);
        }
        assertNull(t.transform(loader, "io/fastclock/rewrite/Anything", RewriteStats.class, null, clockClass),
                "a retransformation is not a definition");
        assertEquals(1, said.size(), "once per loader: " + said);
        assertNotNull(t.transform(null, "io/fastclock/runtime/Other", null, null, clockClass), "the boot loader too");
        assertEquals(2, said.size(), said.toString());
    }

    /** FastClock, retransformed, gets what switchTo says: its JDK read repointed, or its own bytes. */
    @Test
    void fastClocksRetransformationIsTheSwitch() throws Exception {
        byte[] fastClock;
        try (java.io.InputStream in = FastClock.class.getResourceAsStream("FastClock.class")) {
            fastClock = in.readAllBytes();
        }
        ClockTransformer t = new ClockTransformer(new ClockTransformer.Scope(ClockRefs.allClasses(), JdkScope.TIME,
                ClockReplacements.all()), new RewriteStats(), new RewriteStats(), null, m -> false, RuntimeShadows.none(),
                FastClock.class);
        assertNull(t.transform(null, ClockReplacements.FAST_CLOCK, FastClock.class, null, fastClock), "no switch yet");
        t.switchTo(ClockReplacements.of(List.of(new ClockReplacements.Row("java/lang/System", "nanoTime", "()J", "x/Installed",
                "nanoTime", ClockReplacements.Served.NANOS))));
        byte[] switched = t.transform(null, ClockReplacements.FAST_CLOCK, FastClock.class, null, fastClock);
        String text = ClockRefs.text(switched);
        assertTrue(text.contains("x/Installed.nanoTime ()J") && text.contains("java/lang/System.currentTimeMillis ()J"), text);
        assertNull(t.transform(null, "io/fastclock/runtime/SystemClocks", SystemClocks.class, null, fastClock),
                "only FastClock switches");
        t.switchTo(null);
        assertNull(t.transform(null, ClockReplacements.FAST_CLOCK, FastClock.class, null, fastClock), "switched back");
    }

    private static final class Definer extends ClassLoader {
        Definer() {
            super(null);
        }

        Class<?> define(byte[] bytes) {
            return defineClass(null, bytes, 0, bytes.length);
        }
    }
}
