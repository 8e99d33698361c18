package io.fastclock.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fastclock.it.apps.GeneratedClassApp;
import io.fastclock.it.apps.HelloApp;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * The agent rewrites an application's clock calls on the constant pool alone: a hello world whose
 * two calls are rewritten (and whose clocks still read right) loads no class of the agent's ASM
 * (docs/DESIGN-NOTES.md note 10: ASM's first use costs some 30 classes loaded and verified). A class
 * the pool rewrite cannot take goes to ASM's rewriter, in the same JVM, and is rewritten as before.
 */
class PoolRewriteIT {
    static List<Jdk> jdks() {
        return Jdk.all();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void aRewrittenHelloWorldLoadsNoAsmClass(Jdk jdk, @TempDir Path temp) throws Exception {
        Path log = temp.resolve("class-load.log");
        ForkedJvm.Result r = ForkedJvm.on(jdk).agentArgs("mode=on,log=debug")
                .jvmArg("-Xlog:class+load=info:file=" + log).main(HelloApp.class).run();
        assertEquals(0, r.exitCode, r.toString());
        assertEquals("true", r.value("active"), r.toString());
        assertEquals("true", r.value("millisPlausible"), r.toString());
        assertTrue(r.stderr.contains("rewrote " + HelloApp.class.getName() + " (2 call sites)"), r.toString());
        List<String> loaded = Files.readAllLines(log);
        assertTrue(loaded.stream().anyMatch(l -> l.contains(" " + HelloApp.class.getName() + " ")),
                "the class-load log does not name the app: not the log of this run?\n" + r);
        List<String> asm = loaded.stream().filter(l -> l.contains("io.fastclock.shaded.asm."))
                .collect(Collectors.toList());
        assertEquals(List.of(), asm, "ASM classes loaded\n" + r);
    }

    /**
     * read() calls System.currentTimeMillis; never() names the same Methodref with invokevirtual (it
     * would fail to link if run; the verifier lets it through). Repointing the Methodref would change
     * never() too, which ASM's rewrite leaves alone: the pool rewrite hands the class to ASM.
     */
    private static byte[] classWithAnOddUseOfTheClock(String internalName) {
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        cw.visit(Opcodes.V11, Opcodes.ACC_PUBLIC | Opcodes.ACC_SUPER, internalName, null, "java/lang/Object", null);
        MethodVisitor mv = cw.visitMethod(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "read", "()J", null, null);
        mv.visitCode();
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, "java/lang/System", "currentTimeMillis", "()J", false);
        mv.visitInsn(Opcodes.LRETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
        mv = cw.visitMethod(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "never", "(Ljava/lang/System;)J", null, null);
        mv.visitCode();
        mv.visitVarInsn(Opcodes.ALOAD, 0);
        mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, "java/lang/System", "currentTimeMillis", "()J", false);
        mv.visitInsn(Opcodes.LRETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
        cw.visitEnd();
        return cw.toByteArray();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void aClassThePoolRewriteCannotTakeIsRewrittenByAsm(Jdk jdk, @TempDir Path temp) throws Exception {
        String name = "generated.OddClockUse";
        Path classFile = Files.write(temp.resolve("OddClockUse.class"), classWithAnOddUseOfTheClock(name.replace('.', '/')));
        Path log = temp.resolve("class-load.log");
        ForkedJvm.Result r = ForkedJvm.on(jdk).agentArgs("mode=on,log=debug")
                .jvmArg("-Xlog:class+load=info:file=" + log)
                .main(GeneratedClassApp.class, name, classFile.toString()).run();
        assertEquals(0, r.exitCode, r.toString());
        assertEquals("ok", r.value("generatedRead"), r.toString());
        assertTrue(r.stderr.contains("rewrote " + name + " (1 call sites)"), r.toString());
        assertTrue(r.agentLines().stream().anyMatch(l -> l.startsWith("fastclock: totals: ") && l.contains(" failures=0 ")),
                r.toString());
        assertTrue(Files.readAllLines(log).stream().anyMatch(l -> l.contains("io.fastclock.shaded.asm.ClassReader ")),
                "ASM's rewriter did not run\n" + r);
    }
}
