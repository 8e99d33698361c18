package io.fastclock.rewrite;

import io.fastclock.asm.ClockCallRewriter;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ConstantDynamic;
import org.objectweb.asm.Handle;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.util.CheckClassAdapter;
import org.objectweb.asm.util.Textifier;
import org.objectweb.asm.util.TraceClassVisitor;

/** Test helper: what clock references a class file holds, read back with ASM; the rewriter as the agent builds it. */
final class ClockRefs {
    static final String SYSTEM = "java/lang/System";

    /**
     * currentTimeMillis and nanoTime, on a fine clock (the TSC clock): the agent's table then (the
     * epoch row only ever matches the JDK's own classes).
     */
    static final ClockReplacements SYSTEM_CLOCKS = systemClocks();

    private static ClockReplacements systemClocks() {
        return ClockReplacements.serving(EnumSet.of(ClockReplacements.Served.MILLIS, ClockReplacements.Served.NANOS));
    }

    /** Every class but the built-in exclusions. */
    static ClassFilter allClasses() {
        return new ClassFilter(List.of(), List.of());
    }

    /** The transformer as the agent makes it, for the application's classes under {@link #SYSTEM_CLOCKS}. */
    static ClockTransformer transformer(ClassFilter filter, RewriteStats stats, RewriteListener listener,
                                        Predicate<Module> namedModuleGate) {
        ClockTransformer t = new ClockTransformer(filter, JdkScope.NONE, SYSTEM_CLOCKS, stats, new RewriteStats(), listener,
                namedModuleGate);
        t.fallback(ClockCallRewriter.FALLBACK);
        return t;
    }

    /** {@link ClockCallRewriter#rewriteCounting} under {@link #SYSTEM_CLOCKS}: the new bytes, or null when unchanged. */
    static byte[] rewrite(byte[] classfile) {
        Rewritten r = ClockCallRewriter.rewriteCounting(classfile, SYSTEM_CLOCKS);
        return r == null ? null : r.bytes();
    }

    /** currentTimeMillis()J or nanoTime()J, whatever the owner. */
    static boolean isClock(String name, String descriptor) {
        return "()J".equals(descriptor) && ("currentTimeMillis".equals(name) || "nanoTime".equals(name));
    }

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
    /** References (INVOKESTATIC, H_INVOKESTATIC handles) to a method some row of the whole table replaces. */
    int tableRefs;
    /** References to a method some row of the whole table puts in place. */
    int replacementRefs;
    /** {@link #tableRefs} by row ({@code Row.toString()}). */
    final Map<String, Integer> tableRefsByRow = new TreeMap<>();

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
                        if (op == Opcodes.INVOKESTATIC) {
                            refs.tableRef(owner, name, desc);
                        }
                        boolean clock = op == Opcodes.INVOKESTATIC && isClock(name, desc);
                        if (clock && owner.equals(SYSTEM)) {
                            refs.systemCalls++;
                        } else if (clock && owner.equals(ClockReplacements.FAST_CLOCK)) {
                            refs.fastClockCalls++;
                            refs.fastClockItf.add(itf);
                        } else if (owner.equals(SYSTEM)) {
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
            if (h.getTag() == Opcodes.H_INVOKESTATIC) {
                tableRef(h.getOwner(), h.getName(), h.getDesc());
            }
            if (h.getTag() == Opcodes.H_INVOKESTATIC && isClock(h.getName(), h.getDesc())) {
                if (h.getOwner().equals(SYSTEM)) {
                    systemHandles++;
                } else if (h.getOwner().equals(ClockReplacements.FAST_CLOCK)) {
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

    private void tableRef(String owner, String name, String desc) {
        for (ClockReplacements.Row row : ClockReplacements.TABLE) {
            if (row.owner.equals(owner) && row.name.equals(name) && row.descriptor.equals(desc)) {
                tableRefs++;
                tableRefsByRow.merge(row.toString(), 1, Integer::sum);
            } else if (row.newOwner.equals(owner) && row.newName.equals(name) && row.descriptor.equals(desc)) {
                replacementRefs++;
            }
        }
    }

    /** Full textual dump (everything ASM reads, including frames, debug info and attributes). */
    static String text(byte[] classfile) {
        StringWriter sw = new StringWriter();
        new ClassReader(classfile).accept(new TraceClassVisitor(null, new Textifier(), new PrintWriter(sw)), 0);
        return sw.toString();
    }

    /**
     * Dump of a rewritten class with every row of the whole table undone in the text (the method a
     * row puts in place named as the one it replaces, in instructions and in handles alike): for a
     * class that named no fastclock method before, equal to the original's dump exactly when the
     * rewrite changed nothing but those references.
     */
    static String textMappedBack(byte[] rewritten) {
        return mappedBack(text(rewritten));
    }

    /** ASM text (a dump, a verifier's report) with every row of the whole table undone. */
    static String mappedBack(String text) {
        List<ClockReplacements.Row> rows = new ArrayList<>(ClockReplacements.TABLE);
        // nanoTimeAdjustment before nanoTime: the longer name first, though the look-ahead keeps them apart too.
        rows.sort((a, b) -> Integer.compare(b.newName.length(), a.newName.length()));
        for (ClockReplacements.Row row : rows) {
            text = text.replaceAll(Pattern.quote(row.newOwner + "." + row.newName) + "(?=[ (])",
                    Matcher.quoteReplacement(row.owner + "." + row.name));
        }
        return text;
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
