package io.fastclock.rewrite;

import static org.objectweb.asm.Opcodes.*;

import java.util.LinkedHashMap;
import java.util.Map;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.ConstantDynamic;
import org.objectweb.asm.FieldVisitor;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Type;

/**
 * Test helper: classes written with ASM at a given class-file version, calling the System clocks in
 * every place a call can sit. Each generator counts the clock references it emits.
 */
final class GeneratedClasses {
    static final String SYS = "java/lang/System";
    static final Handle MILLIS_HANDLE = new Handle(H_INVOKESTATIC, SYS, "currentTimeMillis", "()J", false);
    static final Handle NANOS_HANDLE = new Handle(H_INVOKESTATIC, SYS, "nanoTime", "()J", false);

    /** Sentinels returned by the stub FastClock. */
    static final long STUB_MILLIS = 1_111_111L;
    static final long STUB_NANOS = 2_222_222L;

    /** Internal name to class-file bytes, plus the number of clock references in each. */
    final Map<String, byte[]> classes = new LinkedHashMap<>();
    final Map<String, Integer> clockRefs = new LinkedHashMap<>();
    final int version;
    private final boolean frames;
    final int major;
    final String main;
    final String iface;

    private int refs;

    GeneratedClasses(int version) {
        this(version, true);
    }

    /** @param frames write stack map frames where the version has them (50+) */
    GeneratedClasses(int version, boolean frames) {
        this.frames = frames;
        this.version = version;
        this.major = version & 0xFFFF;
        this.main = "gen/ClockV" + major + (hasFrames() || major < 50 ? "" : "NoFrames");
        this.iface = hasDefaultMethods() ? "gen/ClockIfaceV" + major + (hasFrames() ? "" : "NoFrames") : null;
        if (iface != null) {
            classes.put(iface, iface());
            clockRefs.put(iface, refs);
            refs = 0;
        }
        classes.put(main, main());
        clockRefs.put(main, refs);
    }

    boolean hasFrames() {
        return frames && major >= 50;
    }

    boolean hasIndy() {
        return major >= 51;
    }

    boolean hasDefaultMethods() {
        return major >= 52;
    }

    boolean hasCondy() {
        return major >= 55;
    }

    private ClassWriter writer() {
        // COMPUTE_FRAMES only where StackMapTable exists: for older versions ASM would emit a CLDC StackMap.
        return new ClassWriter(hasFrames() ? ClassWriter.COMPUTE_FRAMES : ClassWriter.COMPUTE_MAXS) {
            @Override
            protected String getCommonSuperClass(String a, String b) {
                return "java/lang/Object";
            }
        };
    }

    private void clock(MethodVisitor mv, String name) {
        mv.visitMethodInsn(INVOKESTATIC, SYS, name, "()J", false);
        refs++;
    }

    private byte[] iface() {
        ClassWriter cw = writer();
        cw.visit(version, ACC_PUBLIC | ACC_ABSTRACT | ACC_INTERFACE, iface, null, "java/lang/Object", null);
        MethodVisitor mv = cw.visitMethod(ACC_PUBLIC, "dm", "()J", null, null);
        mv.visitCode();
        clock(mv, "currentTimeMillis");
        mv.visitInsn(LRETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
        mv = cw.visitMethod(ACC_PUBLIC | ACC_STATIC, "sm", "()J", null, null);
        mv.visitCode();
        clock(mv, "nanoTime");
        mv.visitInsn(LRETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
        cw.visitEnd();
        return cw.toByteArray();
    }

    private byte[] main() {
        ClassWriter cw = writer();
        cw.visit(version, ACC_PUBLIC | ACC_SUPER, main, null, "java/lang/Object",
                iface == null ? null : new String[] {iface});
        cw.visitSource("Generated.java", null);
        FieldVisitor fv = cw.visitField(ACC_PUBLIC | ACC_STATIC, "AT_INIT", "J", null, null);
        fv.visitEnd();
        cw.visitField(ACC_PUBLIC, "atNew", "J", null, null).visitEnd();

        // static initialiser
        MethodVisitor mv = cw.visitMethod(ACC_STATIC, "<clinit>", "()V", null, null);
        mv.visitCode();
        clock(mv, "currentTimeMillis");
        mv.visitFieldInsn(PUTSTATIC, main, "AT_INIT", "J");
        mv.visitInsn(RETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();

        // constructor
        mv = cw.visitMethod(ACC_PUBLIC, "<init>", "()V", null, null);
        mv.visitCode();
        mv.visitVarInsn(ALOAD, 0);
        mv.visitMethodInsn(INVOKESPECIAL, "java/lang/Object", "<init>", "()V", false);
        mv.visitVarInsn(ALOAD, 0);
        clock(mv, "nanoTime");
        mv.visitFieldInsn(PUTFIELD, main, "atNew", "J");
        mv.visitInsn(RETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();

        // plain static method, with line numbers and a local variable table
        mv = cw.visitMethod(ACC_PUBLIC | ACC_STATIC, "millis", "()J", null, null);
        mv.visitCode();
        Label start = new Label();
        mv.visitLabel(start);
        mv.visitLineNumber(42, start);
        clock(mv, "currentTimeMillis");
        mv.visitInsn(LRETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();

        // loop: long sum = 0; for (int i = 0; i < n; i++) sum += nanoTime(); return sum;
        mv = cw.visitMethod(ACC_PUBLIC | ACC_STATIC, "loop", "(I)J", null, null);
        mv.visitCode();
        Label begin = new Label();
        Label cond = new Label();
        Label end = new Label();
        mv.visitLabel(begin);
        mv.visitInsn(LCONST_0);
        mv.visitVarInsn(LSTORE, 1);
        mv.visitInsn(ICONST_0);
        mv.visitVarInsn(ISTORE, 3);
        mv.visitLabel(cond);
        mv.visitVarInsn(ILOAD, 3);
        mv.visitVarInsn(ILOAD, 0);
        mv.visitJumpInsn(IF_ICMPGE, end);
        mv.visitVarInsn(LLOAD, 1);
        clock(mv, "nanoTime");
        mv.visitInsn(LADD);
        mv.visitVarInsn(LSTORE, 1);
        mv.visitIincInsn(3, 1);
        mv.visitJumpInsn(GOTO, cond);
        mv.visitLabel(end);
        mv.visitVarInsn(LLOAD, 1);
        mv.visitInsn(LRETURN);
        mv.visitLocalVariable("n", "I", null, begin, end, 0);
        mv.visitMaxs(0, 0);
        mv.visitEnd();

        // branch merging a long on the stack: return b ? currentTimeMillis() : nanoTime();
        mv = cw.visitMethod(ACC_PUBLIC | ACC_STATIC, "pick", "(Z)J", null, null);
        mv.visitCode();
        Label other = new Label();
        Label join = new Label();
        mv.visitVarInsn(ILOAD, 0);
        mv.visitJumpInsn(IFEQ, other);
        clock(mv, "currentTimeMillis");
        mv.visitJumpInsn(GOTO, join);
        mv.visitLabel(other);
        clock(mv, "nanoTime");
        mv.visitLabel(join);
        mv.visitInsn(LRETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();

        // a System call that is not a clock: left alone
        mv = cw.visitMethod(ACC_PUBLIC | ACC_STATIC, "copy", "([I[I)V", null, null);
        mv.visitCode();
        mv.visitVarInsn(ALOAD, 0);
        mv.visitInsn(ICONST_0);
        mv.visitVarInsn(ALOAD, 1);
        mv.visitInsn(ICONST_0);
        mv.visitVarInsn(ALOAD, 0);
        mv.visitInsn(ARRAYLENGTH);
        mv.visitMethodInsn(INVOKESTATIC, SYS, "arraycopy", "(Ljava/lang/Object;ILjava/lang/Object;II)V", false);
        mv.visitInsn(RETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();

        if (hasIndy()) {
            // ldc MethodHandle System.currentTimeMillis; invokeExact ()J
            mv = cw.visitMethod(ACC_PUBLIC | ACC_STATIC, "ldcHandle", "()J", null, new String[] {"java/lang/Throwable"});
            mv.visitCode();
            mv.visitLdcInsn(MILLIS_HANDLE);
            refs++;
            mv.visitMethodInsn(INVOKEVIRTUAL, "java/lang/invoke/MethodHandle", "invokeExact", "()J", false);
            mv.visitInsn(LRETURN);
            mv.visitMaxs(0, 0);
            mv.visitEnd();
        }
        if (hasDefaultMethods()) {
            Handle lmf = new Handle(H_INVOKESTATIC, "java/lang/invoke/LambdaMetafactory", "metafactory",
                    "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/invoke/MethodType;"
                            + "Ljava/lang/invoke/MethodType;Ljava/lang/invoke/MethodHandle;Ljava/lang/invoke/MethodType;)"
                            + "Ljava/lang/invoke/CallSite;", false);
            // LongSupplier s = System::currentTimeMillis; return s.getAsLong();
            mv = cw.visitMethod(ACC_PUBLIC | ACC_STATIC, "viaRef", "()J", null, null);
            mv.visitCode();
            mv.visitInvokeDynamicInsn("getAsLong", "()Ljava/util/function/LongSupplier;", lmf,
                    Type.getType("()J"), MILLIS_HANDLE, Type.getType("()J"));
            refs++;
            mv.visitMethodInsn(INVOKEINTERFACE, "java/util/function/LongSupplier", "getAsLong", "()J", true);
            mv.visitInsn(LRETURN);
            mv.visitMaxs(0, 0);
            mv.visitEnd();

            // LongSupplier s = () -> System.nanoTime(); the body lives in a synthetic method
            mv = cw.visitMethod(ACC_PUBLIC | ACC_STATIC, "viaLambda", "()J", null, null);
            mv.visitCode();
            mv.visitInvokeDynamicInsn("getAsLong", "()Ljava/util/function/LongSupplier;", lmf,
                    Type.getType("()J"),
                    new Handle(H_INVOKESTATIC, main, "lambda$viaLambda$0", "()J", false),
                    Type.getType("()J"));
            mv.visitMethodInsn(INVOKEINTERFACE, "java/util/function/LongSupplier", "getAsLong", "()J", true);
            mv.visitInsn(LRETURN);
            mv.visitMaxs(0, 0);
            mv.visitEnd();
            mv = cw.visitMethod(ACC_PRIVATE | ACC_STATIC | ACC_SYNTHETIC, "lambda$viaLambda$0", "()J", null, null);
            mv.visitCode();
            clock(mv, "nanoTime");
            mv.visitInsn(LRETURN);
            mv.visitMaxs(0, 0);
            mv.visitEnd();

            // INVOKESTATIC with isInterface=true (never run: System is a class). The flag must survive.
            mv = cw.visitMethod(ACC_PUBLIC | ACC_STATIC, "itfFlag", "()J", null, null);
            mv.visitCode();
            mv.visitMethodInsn(INVOKESTATIC, SYS, "nanoTime", "()J", true);
            refs++;
            mv.visitInsn(LRETURN);
            mv.visitMaxs(0, 0);
            mv.visitEnd();
        }
        if (hasCondy()) {
            Handle invoke = new Handle(H_INVOKESTATIC, "java/lang/invoke/ConstantBootstraps", "invoke",
                    "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/Class;"
                            + "Ljava/lang/invoke/MethodHandle;[Ljava/lang/Object;)Ljava/lang/Object;", false);
            // ldc condy: the value of System.nanoTime() when the constant is resolved
            ConstantDynamic nanoConst = new ConstantDynamic("nano", "J", invoke, NANOS_HANDLE);
            mv = cw.visitMethod(ACC_PUBLIC | ACC_STATIC, "condy", "()J", null, null);
            mv.visitCode();
            mv.visitLdcInsn(nanoConst);
            refs++;
            mv.visitInsn(LRETURN);
            mv.visitMaxs(0, 0);
            mv.visitEnd();
            // nested: Math.addExact(condy(System.currentTimeMillis), 0L)
            ConstantDynamic millisConst = new ConstantDynamic("millis", "J", invoke, MILLIS_HANDLE);
            ConstantDynamic nested = new ConstantDynamic("nested", "J", invoke,
                    new Handle(H_INVOKESTATIC, "java/lang/Math", "addExact", "(JJ)J", false), millisConst, 0L);
            mv = cw.visitMethod(ACC_PUBLIC | ACC_STATIC, "condyNested", "()J", null, null);
            mv.visitCode();
            mv.visitLdcInsn(nested);
            refs++;
            mv.visitInsn(LRETURN);
            mv.visitMaxs(0, 0);
            mv.visitEnd();
        }
        cw.visitEnd();
        return cw.toByteArray();
    }

    /** A stand-in FastClock returning sentinels, to prove at run time where the calls go. */
    static byte[] stubFastClock() {
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS | ClassWriter.COMPUTE_FRAMES);
        cw.visit(V11, ACC_PUBLIC | ACC_FINAL | ACC_SUPER, ClockReplacements.FAST_CLOCK, null, "java/lang/Object", null);
        for (String[] m : new String[][] {{"currentTimeMillis", "" + STUB_MILLIS}, {"nanoTime", "" + STUB_NANOS}}) {
            MethodVisitor mv = cw.visitMethod(ACC_PUBLIC | ACC_STATIC, m[0], "()J", null, null);
            mv.visitCode();
            mv.visitLdcInsn(Long.parseLong(m[1]));
            mv.visitInsn(LRETURN);
            mv.visitMaxs(0, 0);
            mv.visitEnd();
        }
        cw.visitEnd();
        return cw.toByteArray();
    }

    /** Defines the given classes itself (child-first); everything else from the parent. */
    static final class MapLoader extends ClassLoader {
        private final Map<String, byte[]> byDottedName = new LinkedHashMap<>();

        MapLoader(ClassLoader parent, Map<String, byte[]> internalNameToBytes) {
            super(parent);
            internalNameToBytes.forEach((k, v) -> byDottedName.put(k.replace('/', '.'), v));
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                if (c == null) {
                    byte[] b = byDottedName.get(name);
                    c = b != null ? defineClass(name, b, 0, b.length) : super.loadClass(name, false);
                }
                if (resolve) {
                    resolveClass(c);
                }
                return c;
            }
        }
    }
}
