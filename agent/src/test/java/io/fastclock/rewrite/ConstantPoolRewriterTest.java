package io.fastclock.rewrite;

import static org.junit.jupiter.api.Assertions.*;
import static org.objectweb.asm.Opcodes.*;

import io.fastclock.asm.ClockCallRewriter;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Handle;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Type;

/**
 * The constant-pool rewrite gives ASM's result: the same instructions, owners, names and
 * descriptors (the Textifier dumps are equal), the same call-site count, and classes that verify;
 * and it hands ASM the classes where repointing a pool entry would change more than ASM's rewrite.
 */
class ConstantPoolRewriterTest {
    private static final ClockReplacements TABLE = ClockReplacements.all();
    private static final ConstantPoolRewriter POOL = new ConstantPoolRewriter(TABLE);
    private static final String SYS = "java/lang/System";
    private static final String VM = "jdk/internal/misc/VM";
    private static final Handle LMF = new Handle(H_INVOKESTATIC, "java/lang/invoke/LambdaMetafactory", "metafactory",
            "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/invoke/MethodType;"
                    + "Ljava/lang/invoke/MethodType;Ljava/lang/invoke/MethodHandle;Ljava/lang/invoke/MethodType;)"
                    + "Ljava/lang/invoke/CallSite;", false);

    /** The pool rewrite of {@code original}, checked against ASM's: same dump, same count. */
    private static Rewritten sameAsAsm(String what, byte[] original) {
        Rewritten asm = ClockCallRewriter.rewriteCounting(original, TABLE);
        Rewritten pool = POOL.rewrite(original);
        assertNotSame(ConstantPoolRewriter.ASM_NEEDED, pool, what + ": the pool rewrite handed it to ASM");
        if (asm == null) {
            assertNull(pool, what + ": ASM leaves it unchanged");
            return null;
        }
        assertNotNull(pool, what + ": ASM rewrites it");
        assertEquals(asm.callSites(), pool.callSites(), what + ": call sites");
        assertEquals(ClockRefs.text(asm.bytes()), ClockRefs.text(pool.bytes()), what + ": dump");
        assertFalse(POOL.referencesClock(pool.bytes()), what + ": a replaced method is still referenced");
        return pool;
    }

    @ParameterizedTest(name = "class-file major {0}, frames {1}")
    @MethodSource("io.fastclock.rewrite.ClockCallRewriterTest#versions")
    void generatedClassesComeOutAsAsmsAndVerify(int version, boolean frames) {
        GeneratedClasses gen = new GeneratedClasses(version, frames);
        Map<String, byte[]> rewritten = new HashMap<>();
        gen.classes.forEach((name, bytes) -> {
            Rewritten r = sameAsAsm(name, bytes);
            assertNotNull(r, name);
            assertEquals(gen.clockRefs.get(name), r.callSites(), name + ": every clock reference counted");
            rewritten.put(name, r.bytes());
        });
        ClassLoader loader = new GeneratedClasses.MapLoader(getClass().getClassLoader(), rewritten);
        rewritten.forEach((name, bytes) -> assertEquals("", ClockRefs.verify(bytes, loader), name));
    }

    /**
     * Run against a stand-in FastClock returning sentinels, the pool rewrite's classes return what
     * ASM's do at every entry point (constructors, static initialisers, lambdas, method references,
     * ldc of handles, dynamic constants), and every one of them reaches the stand-in.
     */
    @ParameterizedTest(name = "class-file major {0}, frames {1}")
    @MethodSource("io.fastclock.rewrite.ClockCallRewriterTest#versions")
    void generatedClassesRunAsAsmsDo(int version, boolean frames) throws Exception {
        GeneratedClasses gen = new GeneratedClasses(version, frames);
        org.junit.jupiter.api.Assumptions.assumeTrue(ClockCallRewriterTest.runtimeCanLoad(gen),
                "this JVM cannot load class-file major " + gen.major + (frames ? "" : " without frames"));
        Map<String, byte[]> pool = new HashMap<>();
        Map<String, byte[]> asm = new HashMap<>();
        gen.classes.forEach((name, bytes) -> {
            pool.put(name, POOL.rewrite(bytes).bytes());
            asm.put(name, ClockCallRewriter.rewriteCounting(bytes, TABLE).bytes());
        });
        pool.put(ClockReplacements.FAST_CLOCK, GeneratedClasses.stubFastClock());
        asm.put(ClockReplacements.FAST_CLOCK, GeneratedClasses.stubFastClock());
        ClassLoader parent = getClass().getClassLoader();
        Map<String, Long> byPool = ClockCallRewriterTest.run(gen, new GeneratedClasses.MapLoader(parent, pool));
        Map<String, Long> byAsm = ClockCallRewriterTest.run(gen, new GeneratedClasses.MapLoader(parent, asm));
        assertEquals(byAsm, byPool);
        byPool.forEach((what, value) -> assertTrue(value == GeneratedClasses.STUB_MILLIS
                || value == GeneratedClasses.STUB_NANOS || value == 3 * GeneratedClasses.STUB_NANOS, what + " = " + value));
    }

    /** One Methodref serves an invokestatic, an ldc of its handle and a lambda's bootstrap argument. */
    @Test
    void aMethodrefSharedByACallAndHandlesIsRepointedOnceForAll() {
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_FRAMES);
        cw.visit(V11, ACC_PUBLIC, "t/Shared", null, "java/lang/Object", null);
        Handle millis = new Handle(H_INVOKESTATIC, SYS, "currentTimeMillis", "()J", false);
        MethodVisitor mv = method(cw, "call", "()J");
        mv.visitMethodInsn(INVOKESTATIC, SYS, "currentTimeMillis", "()J", false);
        end(mv, LRETURN);
        mv = method(cw, "handle", "()Ljava/lang/Object;");
        mv.visitLdcInsn(millis);
        end(mv, ARETURN);
        mv = method(cw, "lambda", "()Ljava/lang/Object;");
        mv.visitInvokeDynamicInsn("getAsLong", "()Ljava/util/function/LongSupplier;", LMF, Type.getType("()J"),
                millis, Type.getType("()J"));
        end(mv, ARETURN);
        byte[] original = cw.toByteArray();
        assertEquals(1, methodrefs(original, SYS, "currentTimeMillis"), "ASM writes one Methodref for all three uses");

        Rewritten r = sameAsAsm("t/Shared", original);
        assertEquals(3, r.callSites());
        assertEquals(0, methodrefs(r.bytes(), SYS, "currentTimeMillis"));
        assertEquals(1, methodrefs(r.bytes(), ClockReplacements.FAST_CLOCK, "currentTimeMillis"));
        // Only the Utf8 and the Class of the new owner are added: the NameAndType is shared.
        assertEquals(poolCount(original) + 2, poolCount(r.bytes()));
        assertEquals("", ClockRefs.verify(r.bytes(), getClass().getClassLoader()));
    }

    @Test
    void aClassThatAlreadyNamesFastClockReusesItsEntry() {
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_FRAMES);
        cw.visit(V17, ACC_PUBLIC, "t/Both", null, "java/lang/Object", null);
        MethodVisitor mv = method(cw, "both", "()J");
        mv.visitMethodInsn(INVOKESTATIC, ClockReplacements.FAST_CLOCK, "nanoTime", "()J", false);
        mv.visitMethodInsn(INVOKESTATIC, SYS, "nanoTime", "()J", false);
        mv.visitInsn(LADD);
        end(mv, LRETURN);
        byte[] original = cw.toByteArray();
        Rewritten r = sameAsAsm("t/Both", original);
        assertEquals(1, r.callSites());
        assertEquals(poolCount(original), poolCount(r.bytes()), "nothing appended");
    }

    /** VM.getNanoTimeAdjustment becomes FastClock.nanoTimeAdjustment; another owner's method of that name stays. */
    @Test
    void aRenamingRowGetsANameAndTypeOfItsOwn() {
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_FRAMES);
        cw.visit(V11, ACC_PUBLIC, "t/Rename", null, "java/lang/Object", null);
        MethodVisitor mv = method(cw, "adjust", "()J");
        mv.visitLdcInsn(5L);
        mv.visitMethodInsn(INVOKESTATIC, VM, "getNanoTimeAdjustment", "(J)J", false);
        mv.visitLdcInsn(2.5d);
        mv.visitInsn(POP2);
        mv.visitMethodInsn(INVOKESTATIC, "t/Other", "getNanoTimeAdjustment", "(J)J", false);
        mv.visitMethodInsn(INVOKESTATIC, VM, "getNanoTimeAdjustment", "(J)J", false);
        mv.visitMethodInsn(INVOKESTATIC, SYS, "currentTimeMillis", "()J", false);
        mv.visitInsn(LADD);
        end(mv, LRETURN);
        byte[] original = cw.toByteArray();
        Rewritten r = sameAsAsm("t/Rename", original);
        assertEquals(3, r.callSites());
        assertEquals(1, methodrefs(r.bytes(), "t/Other", "getNanoTimeAdjustment"));
        assertEquals(1, methodrefs(r.bytes(), ClockReplacements.FAST_CLOCK, "nanoTimeAdjustment"));
        // FastClock's Utf8 and Class (one for both rows), the new name's Utf8 and its NameAndType.
        assertEquals(poolCount(original) + 4, poolCount(r.bytes()));
    }

    @Test
    void aMethodrefInThePoolThatNoCodeUsesLeavesTheClassUnchanged() {
        ClassWriter cw = new ClassWriter(0);
        cw.visit(V11, ACC_PUBLIC, "t/Unused", null, "java/lang/Object", null);
        cw.newMethod(SYS, "currentTimeMillis", "()J", false);
        byte[] original = cw.toByteArray();
        assertTrue(POOL.referencesClock(original));
        assertNull(sameAsAsm("t/Unused", original));
    }

    @Test
    void moduleInfoWithModuleAndPackageEntriesParses() {
        ClassWriter cw = new ClassWriter(0);
        cw.visit(V9, ACC_MODULE, "module-info", null, null, null);
        org.objectweb.asm.ModuleVisitor m = cw.visitModule("t.mod", 0, null);
        m.visitPackage("t/p");
        m.visitExport("t/p", 0);
        m.visitEnd();
        assertNull(POOL.rewrite(cw.toByteArray()));
    }

    /** A clock Methodref used by invokevirtual (malformed: it fails to link) : ASM rewrites only the invokestatic. */
    @Test
    void aClockMethodrefUsedByAnotherInstructionGoesToAsm() {
        ClassWriter cw = new ClassWriter(0);
        cw.visit(V11, ACC_PUBLIC, "t/Odd", null, "java/lang/Object", null);
        MethodVisitor mv = method(cw, "odd", "()J");
        mv.visitMethodInsn(INVOKESTATIC, SYS, "currentTimeMillis", "()J", false);
        mv.visitInsn(POP2);
        mv.visitVarInsn(ALOAD, 0);
        mv.visitMethodInsn(INVOKEVIRTUAL, SYS, "currentTimeMillis", "()J", false);
        mv.visitInsn(LRETURN);
        mv.visitMaxs(4, 1);
        mv.visitEnd();
        byte[] original = cw.toByteArray();
        assertSame(ConstantPoolRewriter.ASM_NEEDED, POOL.rewrite(original));

        RewriteStats stats = new RewriteStats();
        byte[] out = transformer(stats).transform(null, "t/Odd", null, null, original);
        assertArrayEquals(ClockCallRewriter.rewriteCounting(original, TABLE).bytes(), out, "ASM's rewrite");
        assertEquals(1, stats.callSites());
        assertTrue(ClockRefs.text(out).contains("INVOKEVIRTUAL java/lang/System.currentTimeMillis"));
    }

    @Test
    void aClockMethodrefUnderAHandleOfAnotherKindGoesToAsm() {
        ClassWriter cw = new ClassWriter(0);
        cw.visit(V11, ACC_PUBLIC, "t/OddHandle", null, "java/lang/Object", null);
        MethodVisitor mv = method(cw, "odd", "()Ljava/lang/Object;");
        mv.visitMethodInsn(INVOKESTATIC, SYS, "currentTimeMillis", "()J", false);
        mv.visitInsn(POP2);
        mv.visitLdcInsn(new Handle(H_INVOKEVIRTUAL, SYS, "currentTimeMillis", "()J", false));
        mv.visitInsn(ARETURN);
        mv.visitMaxs(2, 0);
        mv.visitEnd();
        assertSame(ConstantPoolRewriter.ASM_NEEDED, POOL.rewrite(cw.toByteArray()));
    }

    /** A full pool (65535) cannot take FastClock's entries: ASM cannot either, and the class stays as it was. */
    @Test
    void aFullPoolGoesToAsmAndTheClassStaysUnchanged() {
        byte[] full = fullPool(false);
        assertEquals(0xFFFF, poolCount(full));
        assertSame(ConstantPoolRewriter.ASM_NEEDED, POOL.rewrite(full));
        RewriteStats stats = new RewriteStats();
        ClockTransformer t = transformer(stats);
        assertNull(t.transform(null, "t/Full", null, null, full));
        assertEquals(1, stats.failures());
        RuntimeException asm = assertThrows(RuntimeException.class, () -> ClockCallRewriter.rewriteCounting(full, TABLE));
        assertEquals("t/Full: " + asm, stats.firstFailure(), "ASM's failure is the one reported");
    }

    /** ... unless the entries it needs are there already. */
    @Test
    void aFullPoolThatNamesFastClockIsRewrittenInPlace() {
        byte[] full = fullPool(true);
        assertEquals(0xFFFF, poolCount(full));
        Rewritten r = POOL.rewrite(full);
        assertNotSame(ConstantPoolRewriter.ASM_NEEDED, r);
        assertEquals(1, r.callSites());
        assertEquals(0xFFFF, poolCount(r.bytes()));
        assertEquals("", ClockRefs.verify(r.bytes(), getClass().getClassLoader()));
    }

    @Test
    void aClassFileNewerThanItWasCheckedOnGoesToAsm() {
        GeneratedClasses gen = new GeneratedClasses(V17);
        byte[] newer = gen.classes.get(gen.main).clone();
        newer[6] = 0;
        newer[7] = (byte) (ConstantPoolRewriter.NEWEST_MAJOR + 1);
        assertSame(ConstantPoolRewriter.ASM_NEEDED, POOL.rewrite(newer));
    }

    @Test
    void aMalformedClassIsLeftUnchangedAndReportedOnce() {
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_FRAMES);
        cw.visit(V11, ACC_PUBLIC, "t/Cut", null, "java/lang/Object", null);
        MethodVisitor mv = method(cw, "m", "()J");
        mv.visitMethodInsn(INVOKESTATIC, SYS, "currentTimeMillis", "()J", false);
        end(mv, LRETURN);
        byte[] whole = cw.toByteArray();
        byte[] cut = java.util.Arrays.copyOf(whole, whole.length - 20);
        assertThrows(RuntimeException.class, () -> POOL.rewrite(cut));
        RewriteStats stats = new RewriteStats();
        java.util.List<Throwable> reported = new java.util.ArrayList<>();
        ClockTransformer t = new ClockTransformer(ClockRefs.allClasses(), JdkScope.NONE, TABLE, stats, new RewriteStats(),
                new RewriteListener() {
                    @Override
                    public void rewritten(String className, int callSites) {}

                    @Override
                    public void failed(String className, Throwable failure) {
                        reported.add(failure);
                    }
                }, m -> false);
        t.fallback(ClockCallRewriter.FALLBACK);
        assertNull(t.transform(null, "t/Cut", null, null, cut));
        assertEquals(1, stats.failures());
        // The pool rewrite's failure hands the class to ASM, which fails too: ASM's failure is the one reported.
        assertEquals(1, reported.size());
        assertTrue(reported.get(0).getStackTrace()[0].getClassName().startsWith("org.objectweb.asm."),
                java.util.Arrays.toString(reported.get(0).getStackTrace()));
    }

    @Test
    void theTransformerTakesThePoolPathForAWellFormedClass() {
        GeneratedClasses gen = new GeneratedClasses(V17);
        RewriteStats stats = new RewriteStats();
        ClockTransformer t = transformer(stats);
        byte[] in = gen.classes.get(gen.main);
        byte[] out = t.transform(null, gen.main, null, null, in);
        assertNotNull(out);
        assertArrayEquals(POOL.rewrite(in).bytes(), out, "the pool's rewrite");
        assertFalse(Arrays.equals(ClockCallRewriter.rewriteCounting(in, TABLE).bytes(), out), "not ASM's");
        assertEquals((long) gen.clockRefs.get(gen.main), stats.callSites());
    }

    private static ClockTransformer transformer(RewriteStats stats) {
        ClockTransformer t = new ClockTransformer(ClockRefs.allClasses(), JdkScope.NONE, TABLE, stats, new RewriteStats(), null,
                m -> false);
        t.fallback(ClockCallRewriter.FALLBACK);
        return t;
    }

    /** A class whose pool has 65534 entries (count 65535), one of them a System.currentTimeMillis call. */
    private static byte[] fullPool(boolean namesFastClock) {
        int fillers = 0;
        for (int round = 0; round < 2; round++) {
            ClassWriter cw = new ClassWriter(0);
            cw.visit(V11, ACC_PUBLIC, "t/Full", null, "java/lang/Object", null);
            MethodVisitor mv = method(cw, "m", "()J");
            mv.visitMethodInsn(INVOKESTATIC, SYS, "currentTimeMillis", "()J", false);
            mv.visitInsn(LRETURN);
            mv.visitMaxs(2, 0);
            mv.visitEnd();
            if (namesFastClock) {
                cw.newClass(ClockReplacements.FAST_CLOCK);
            }
            for (int i = 0; i < fillers; i++) {
                cw.newUTF8("f" + i);
            }
            byte[] b = cw.toByteArray();
            if (round == 1) {
                return b;
            }
            fillers = 0xFFFF - poolCount(b);
        }
        throw new AssertionError();
    }

    private static MethodVisitor method(ClassWriter cw, String name, String desc) {
        MethodVisitor mv = cw.visitMethod(ACC_PUBLIC | ACC_STATIC, name, desc, null, null);
        mv.visitCode();
        return mv;
    }

    private static void end(MethodVisitor mv, int returnOpcode) {
        mv.visitInsn(returnOpcode);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
    }

    private static int poolCount(byte[] b) {
        return (b[8] & 0xFF) << 8 | b[9] & 0xFF;
    }

    /** Methodref entries for {@code owner.name}. */
    private static int methodrefs(byte[] b, String owner, String name) {
        ClassReader r = new ClassReader(b);
        char[] buf = new char[r.getMaxStringLength()];
        int n = 0;
        for (int i = 1; i < r.getItemCount(); i++) {
            int at = r.getItem(i);
            if (at != 0 && r.readByte(at - 1) == 10 && owner.equals(r.readClass(at, buf))
                    && name.equals(r.readUTF8(r.getItem(r.readUnsignedShort(at + 2)), buf))) {
                n++;
            }
        }
        return n;
    }
}
