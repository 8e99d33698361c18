package io.fastclock.asm;

import io.fastclock.rewrite.ClassRewriter;
import io.fastclock.rewrite.ClockReplacements;
import io.fastclock.rewrite.Rewritten;
import java.util.HashSet;
import java.util.Set;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.ConstantDynamic;
import org.objectweb.asm.Handle;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * The fallback of {@link io.fastclock.rewrite.ConstantPoolRewriter} (which the transformer runs first, without loading ASM)
 * for the classes it cannot take, and the reference it is tested against. Swaps the clock method
 * references listed in {@link ClockReplacements} (such as {@code System.currentTimeMillis()J} and
 * {@code System.nanoTime()J} for {@code FastClock}'s) in:
 * <ul>
 *   <li>{@code INVOKESTATIC} instructions (the {@code isInterface} flag is kept as it was);</li>
 *   <li>{@code H_INVOKESTATIC} method handles among {@code invokedynamic} bootstrap arguments
 *       ({@code System::currentTimeMillis} method references via {@code LambdaMetafactory});</li>
 *   <li>method-handle constants loaded by {@code ldc}, and handles among the bootstrap arguments of
 *       {@code ConstantDynamic} constants (recursively).</li>
 * </ul>
 * The descriptor stays {@code ()J}, so stack maps and max stack/locals stay valid: the writer is
 * built with {@code new ClassWriter(reader, 0)}, which copies the constant pool and never loads a
 * class. Nothing else in the class changes: {@link #rewriteCounting} first finds the methods that hold a
 * clock reference (read-only pass), then rewrites only those; every other method is copied byte for
 * byte by the writer (measured on the Maven-repository corpus: about 18% faster than re-encoding all
 * methods, once warm).
 *
 * <p>One instance visits one class; it is not thread-safe. {@link #rewriteCounting} is the
 * thread-safe facade.
 */
public final class ClockCallRewriter extends ClassVisitor {
    /** {@link #rewriteCounting} as the transformer's fallback: {@link AsmFallback}, which loads no ASM class itself. */
    public static final ClassRewriter FALLBACK = AsmFallback.INSTANCE;

    private final ClockReplacements table;
    /** Methods (name + descriptor) to visit; the others pass straight through. Null: all. */
    private final Set<String> only;
    /** Methods (name + descriptor) in which something was rewritten. */
    private final Set<String> touched = new HashSet<>();
    private int callSites;

    private ClockCallRewriter(ClassVisitor next, ClockReplacements table, Set<String> only) {
        super(Opcodes.ASM9, next);
        this.table = table;
        this.only = only;
    }

    /** Number of references rewritten so far (instructions plus handles). */
    public int callSites() {
        return callSites;
    }

    @Override
    public MethodVisitor visitMethod(
            int access, String name, String descriptor, String signature, String[] exceptions) {
        MethodVisitor mv = super.visitMethod(access, name, descriptor, signature, exceptions);
        String key = name + descriptor;
        if (mv == null || (only != null && !only.contains(key))) {
            // Unwrapped, a ClassWriter built from the reader copies the method's bytes as they are.
            return mv;
        }
        return new Rewriting(mv, key);
    }

    private final class Rewriting extends MethodVisitor {
        private final String key;
        private final int sitesBefore;

        Rewriting(MethodVisitor mv, String key) {
            super(Opcodes.ASM9, mv);
            this.key = key;
            this.sitesBefore = callSites;
        }

        @Override
        public void visitEnd() {
            if (callSites != sitesBefore) {
                touched.add(key);
            }
            super.visitEnd();
        }

        @Override
        public void visitMethodInsn(
                int opcode, String owner, String name, String descriptor, boolean isInterface) {
            if (opcode == Opcodes.INVOKESTATIC) {
                ClockReplacements.Row row = table.find(owner, name, descriptor);
                if (row != null) {
                    owner = row.newOwner;
                    name = row.newName;
                    callSites++;
                }
            }
            super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
        }

        @Override
        public void visitInvokeDynamicInsn(
                String name, String descriptor, Handle bsm, Object... bsmArgs) {
            super.visitInvokeDynamicInsn(name, descriptor, (Handle) map(bsm), mapAll(bsmArgs));
        }

        @Override
        public void visitLdcInsn(Object value) {
            super.visitLdcInsn(map(value));
        }
    }

    private Object[] mapAll(Object[] args) {
        Object[] out = args;
        for (int i = 0; i < args.length; i++) {
            Object mapped = map(args[i]);
            if (mapped != args[i]) {
                if (out == args) {
                    out = args.clone();
                }
                out[i] = mapped;
            }
        }
        return out;
    }

    /** The value itself when it needs no change, else a rewritten copy. */
    private Object map(Object value) {
        if (value instanceof Handle) {
            Handle h = (Handle) value;
            ClockReplacements.Row row = h.getTag() == Opcodes.H_INVOKESTATIC
                    ? table.find(h.getOwner(), h.getName(), h.getDesc()) : null;
            if (row != null) {
                callSites++;
                return new Handle(h.getTag(), row.newOwner, row.newName, h.getDesc(), h.isInterface());
            }
            return h;
        }
        if (value instanceof ConstantDynamic) {
            ConstantDynamic c = (ConstantDynamic) value;
            Handle bsm = c.getBootstrapMethod();
            Handle newBsm = (Handle) map(bsm);
            int n = c.getBootstrapMethodArgumentCount();
            Object[] args = new Object[n];
            boolean changed = newBsm != bsm;
            for (int i = 0; i < n; i++) {
                Object arg = c.getBootstrapMethodArgument(i);
                args[i] = map(arg);
                changed |= args[i] != arg;
            }
            return changed ? new ConstantDynamic(c.getName(), c.getDescriptor(), newBsm, args) : c;
        }
        return value;
    }


    /**
     * Rewrites a class file with the rows of {@code table}. Returns null when the class has nothing to
     * rewrite (decided from the constant pool, before visiting any code). Throws on malformed or
     * unsupported class files.
     */
    public static Rewritten rewriteCounting(byte[] classfile, ClockReplacements table) {
        ClassReader reader = new ClassReader(classfile);
        if (!referencesClock(reader, table)) {
            return null;
        }
        // First pass, read-only: which methods need rewriting.
        ClockCallRewriter probe = new ClockCallRewriter(NO_OP, table, null);
        reader.accept(probe, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
        if (probe.callSites == 0) {
            return null; // e.g. a Methodref in the pool that no code uses
        }
        // Second pass: rewrite those methods; every other method is copied byte for byte.
        ClassWriter writer = new ClassWriter(reader, 0);
        ClockCallRewriter rewriter = new ClockCallRewriter(writer, table, probe.touched);
        reader.accept(rewriter, 0);
        if (rewriter.callSites != probe.callSites) {
            throw new IllegalStateException(
                    "rewrote " + rewriter.callSites + " call sites, expected " + probe.callSites);
        }
        return new Rewritten(writer.toByteArray(), rewriter.callSites);
    }

    /** Visits methods with an empty visitor, nothing else. */
    private static final ClassVisitor NO_OP = new ClassVisitor(Opcodes.ASM9) {
        @Override
        public MethodVisitor visitMethod(int a, String n, String d, String s, String[] e) {
            return new MethodVisitor(Opcodes.ASM9) {};
        }
    };

    private static final int CONSTANT_METHODREF = 10;
    private static final int CONSTANT_INTERFACE_METHODREF = 11;

    /**
     * Whether the constant pool holds a {@code Methodref}/{@code InterfaceMethodref} for a method
     * the table replaces. Every instruction and method-handle constant that could need rewriting
     * points at one.
     */
    public static boolean referencesClock(ClassReader reader, ClockReplacements table) {
        int count = reader.getItemCount();
        char[] buf = null;
        for (int i = 1; i < count; i++) {
            int offset = reader.getItem(i);
            if (offset == 0) {
                continue; // second slot of a long/double
            }
            int tag = reader.readByte(offset - 1);
            if (tag != CONSTANT_METHODREF && tag != CONSTANT_INTERFACE_METHODREF) {
                continue;
            }
            if (buf == null) {
                buf = new char[reader.getMaxStringLength()];
            }
            String owner = reader.readClass(offset, buf);
            if (!table.hasOwner(owner)) {
                continue;
            }
            int nat = reader.getItem(reader.readUnsignedShort(offset + 2));
            if (table.find(owner, reader.readUTF8(nat, buf), reader.readUTF8(nat + 2, buf)) != null) {
                return true;
            }
        }
        return false;
    }
}
