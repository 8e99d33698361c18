package io.fastclock.rewrite;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ConstantDynamic;
import org.objectweb.asm.Handle;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.util.CheckClassAdapter;
import org.objectweb.asm.util.Textifier;
import org.objectweb.asm.util.TraceClassVisitor;

/** Test helper: what clock references a class file holds, read back with ASM. */
final class ClockRefs {
    /** INVOKESTATIC System.currentTimeMillis/nanoTime ()J left in code. */
    int systemCalls;
    /** H_INVOKESTATIC handles to the System clocks (indy args, ldc, condy args). */
    int systemHandles;
    int fastClockCalls;
    int fastClockHandles;
    /** isInterface flags of the FastClock call instructions, in order. */
    final List<Boolean> fastClockItf = new ArrayList<>();
    /** Other System methods called (arraycopy...). */
    final List<String> otherSystemCalls = new ArrayList<>();

    int systemRefs() {
        return systemCalls + systemHandles;
    }

    int fastClockRefs() {
        return fastClockCalls + fastClockHandles;
    }

    static ClockRefs of(byte[] classfile) {
        ClockRefs refs = new ClockRefs();
        new ClassReader(classfile).accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public MethodVisitor visitMethod(int a, String n, String d, String s, String[] e) {
                return new MethodVisitor(Opcodes.ASM9) {
                    @Override
                    public void visitMethodInsn(int op, String owner, String name, String desc, boolean itf) {
                        boolean clock = op == Opcodes.INVOKESTATIC && ClockCallRewriter.isClock(name, desc);
                        if (clock && owner.equals(ClockCallRewriter.SYSTEM)) {
                            refs.systemCalls++;
                        } else if (clock && owner.equals(ClockCallRewriter.FAST_CLOCK)) {
                            refs.fastClockCalls++;
                            refs.fastClockItf.add(itf);
                        } else if (owner.equals(ClockCallRewriter.SYSTEM)) {
                            refs.otherSystemCalls.add(name + desc);
                        }
                    }

                    @Override
                    public void visitInvokeDynamicInsn(String name, String desc, Handle bsm, Object... args) {
                        refs.constant(bsm);
                        for (Object arg : args) {
                            refs.constant(arg);
                        }
                    }

                    @Override
                    public void visitLdcInsn(Object value) {
                        refs.constant(value);
                    }
                };
            }
        }, 0);
        return refs;
    }

    private void constant(Object value) {
        if (value instanceof Handle) {
            Handle h = (Handle) value;
            if (h.getTag() == Opcodes.H_INVOKESTATIC && ClockCallRewriter.isClock(h.getName(), h.getDesc())) {
                if (h.getOwner().equals(ClockCallRewriter.SYSTEM)) {
                    systemHandles++;
                } else if (h.getOwner().equals(ClockCallRewriter.FAST_CLOCK)) {
                    fastClockHandles++;
                }
            }
        } else if (value instanceof ConstantDynamic) {
            ConstantDynamic c = (ConstantDynamic) value;
            constant(c.getBootstrapMethod());
            for (int i = 0; i < c.getBootstrapMethodArgumentCount(); i++) {
                constant(c.getBootstrapMethodArgument(i));
            }
        }
    }

    /** Full textual dump (everything ASM reads, including frames, debug info and attributes). */
    static String text(byte[] classfile) {
        StringWriter sw = new StringWriter();
        new ClassReader(classfile).accept(new TraceClassVisitor(null, new Textifier(), new PrintWriter(sw)), 0);
        return sw.toString();
    }

    /** Dump of a rewritten class with FastClock references mapped back to System. */
    static String textMappedBack(byte[] rewritten) {
        StringWriter sw = new StringWriter();
        TraceClassVisitor trace = new TraceClassVisitor(null, new Textifier(), new PrintWriter(sw));
        new ClassReader(rewritten).accept(
                new ClockCallRewriter(trace, ClockCallRewriter.FAST_CLOCK, ClockCallRewriter.SYSTEM), 0);
        return sw.toString();
    }

    /** CheckClassAdapter's data-flow verification; returns its output ("" when it found nothing). */
    static String verify(byte[] classfile, ClassLoader loader) {
        StringWriter sw = new StringWriter();
        try (PrintWriter pw = new PrintWriter(sw)) {
            CheckClassAdapter.verify(new ClassReader(classfile), loader, false, pw);
        } catch (Throwable t) {
            return "threw " + t;
        }
        return sw.toString();
    }
}
