package io.fastclock.rewrite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fastclock.asm.ClockCallRewriter;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/** The table the rewriter reads, and the rewriter applying its epoch row to a java.time-shaped class. */
class ClockReplacementsTest {
    @Test
    void everyRowKeepsItsDescriptor() {
        for (ClockReplacements.Row r : ClockReplacements.TABLE) {
            assertEquals(ClockReplacements.FAST_CLOCK, r.newOwner, r.toString());
        }
        assertNotNull(ClockReplacements.all().find("jdk/internal/misc/VM", "getNanoTimeAdjustment", "(J)J"));
        assertNull(ClockReplacements.all().find("jdk/internal/misc/VM", "getNanoTimeAdjustment", "()J"));
        assertNull(ClockRefs.SYSTEM_CLOCKS.find("jdk/internal/misc/VM", "getNanoTimeAdjustment", "(J)J"));
    }

    @Test
    void onlyServedRowsApply() {
        ClockReplacements epochOnly = ClockReplacements.serving(EnumSet.of(ClockReplacements.Served.EPOCH));
        assertNull(epochOnly.find("java/lang/System", "nanoTime", "()J"));
        assertNotNull(epochOnly.find("jdk/internal/misc/VM", "getNanoTimeAdjustment", "(J)J"));
        assertTrue(epochOnly.serves(ClockReplacements.Served.EPOCH));
        assertFalse(epochOnly.serves(ClockReplacements.Served.MILLIS));
        assertTrue(ClockReplacements.serving(EnumSet.noneOf(ClockReplacements.Served.class)).isEmpty());
        assertTrue(ClockReplacements.all().covers(epochOnly) && !epochOnly.covers(ClockReplacements.all()));
    }

    /** A class shaped like JDK 17's Clock.currentInstant(): VM.getNanoTimeAdjustment and System.currentTimeMillis. */
    static byte[] currentInstantLike() {
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_FRAMES | ClassWriter.COMPUTE_MAXS);
        cw.visit(Opcodes.V11, Opcodes.ACC_PUBLIC, "t/ClockLike", null, "java/lang/Object", null);
        MethodVisitor mv = cw.visitMethod(Opcodes.ACC_STATIC, "adjustment", "(J)J", null, null);
        mv.visitCode();
        mv.visitVarInsn(Opcodes.LLOAD, 0);
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, "jdk/internal/misc/VM", "getNanoTimeAdjustment", "(J)J", false);
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, "java/lang/System", "currentTimeMillis", "()J", false);
        mv.visitInsn(Opcodes.LADD);
        mv.visitInsn(Opcodes.LRETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
        cw.visitEnd();
        return cw.toByteArray();
    }

    @Test
    void epochRowRewritesGetNanoTimeAdjustmentAndNothingElseChanges() {
        Rewritten r = ClockCallRewriter.rewriteCounting(currentInstantLike(), ClockReplacements.all());
        assertNotNull(r);
        assertEquals(2, r.callSites());
        List<String> calls = calls(r.bytes());
        assertEquals(List.of("io/fastclock/runtime/FastClock.nanoTimeAdjustment(J)J",
                "io/fastclock/runtime/FastClock.currentTimeMillis()J"), calls);
        // Without the epoch row, getNanoTimeAdjustment stays the JDK's.
        Rewritten millisOnly = ClockCallRewriter.rewriteCounting(currentInstantLike(),
                ClockRefs.SYSTEM_CLOCKS);
        assertEquals(List.of("jdk/internal/misc/VM.getNanoTimeAdjustment(J)J",
                "io/fastclock/runtime/FastClock.currentTimeMillis()J"), calls(millisOnly.bytes()));
    }

    @Test
    void jdkScopeCoversTheTimeClassesOnlyUnlessAll() {
        assertTrue(JdkScope.TIME.covers("java/time/Clock"));
        assertTrue(JdkScope.TIME.covers("java/util/Date"));
        assertFalse(JdkScope.TIME.covers("java/util/concurrent/ThreadPoolExecutor"));
        assertTrue(JdkScope.ALL.covers("java/util/concurrent/ThreadPoolExecutor"));
        assertFalse(JdkScope.ALL.covers("java/lang/System"));
        assertFalse(JdkScope.ALL.covers("jdk/internal/misc/VM"));
        assertFalse(JdkScope.ALL.covers("com/acme/App"));
        assertFalse(JdkScope.NONE.covers("java/time/Clock"));
    }

    @Test
    void transformerRewritesJdkClassesInScopeAndHonoursUserExcludes() {
        RewriteStats app = new RewriteStats();
        RewriteStats jdk = new RewriteStats();
        ClockTransformer t = new ClockTransformer(new ClassFilter(List.of(), List.of("java.util.")), JdkScope.ALL,
                ClockReplacements.all(), app, jdk, null, m -> true);
        byte[] bytes = currentInstantLike();
        assertNotNull(t.transform(null, "java/time/Clock", null, null, bytes));
        assertNull(t.transform(null, "java/util/Date", null, null, bytes), "excluded by the user");
        assertNull(t.transform(null, "java/lang/System", null, null, bytes), "never");
        assertEquals(1, jdk.rewritten());
        assertEquals(0, app.rewritten());
        ClockTransformer none = new ClockTransformer(ClockRefs.allClasses(), JdkScope.NONE, ClockReplacements.all(),
                app, jdk, null, m -> true);
        assertNull(none.transform(null, "java/time/Clock", null, null, bytes));
    }

    private static List<String> calls(byte[] classfile) {
        List<String> out = new ArrayList<>();
        new ClassReader(classfile).accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public MethodVisitor visitMethod(int a, String n, String d, String s, String[] e) {
                return new MethodVisitor(Opcodes.ASM9) {
                    @Override
                    public void visitMethodInsn(int op, String owner, String name, String desc, boolean itf) {
                        out.add(owner + "." + name + desc);
                    }
                };
            }
        }, 0);
        return out;
    }
}
