package io.fastclock.it.apps;

import java.lang.invoke.CallSite;
import java.lang.invoke.LambdaMetafactory;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Handle;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * Many classes calling the clocks, generated with ASM and defined from several threads at once in
 * separate class loaders (half with the system loader as parent, half with the bootstrap loader),
 * while other threads call the clocks. Each class has {@code static long run()} that calls
 * System.currentTimeMillis and System.nanoTime directly; every second class also through
 * invokedynamic (a {@code System::nanoTime} LongSupplier and a lambda whose synthetic body calls
 * System.currentTimeMillis). Prints counts of what went wrong.
 *
 * args: classes loaderThreads clockThreads
 */
public final class ConcurrentLoadApp {
    static final String METAFACTORY_DESC = MethodType.methodType(CallSite.class, MethodHandles.Lookup.class,
            String.class, MethodType.class, MethodType.class, java.lang.invoke.MethodHandle.class, MethodType.class)
            .toMethodDescriptorString();
    static final Handle METAFACTORY = new Handle(Opcodes.H_INVOKESTATIC,
            Type.getInternalName(LambdaMetafactory.class), "metafactory", METAFACTORY_DESC, false);

    public static void main(String[] args) throws Exception {
        AgentVerdict.await();
        int classes = Integer.parseInt(args[0]);
        int loaderThreads = Integer.parseInt(args[1]);
        int clockThreads = Integer.parseInt(args[2]);
        System.out.println("backends=" + ReferenceClocks.backends().replace(' ', ','));

        AtomicLong defined = new AtomicLong();
        AtomicLong verifyErrors = new AtomicLong();
        AtomicLong linkageErrors = new AtomicLong();
        AtomicLong otherErrors = new AtomicLong();
        // Two checks, each with its own count, and the first value off the reference, with its check's name.
        AtomicLong millisOffReference = new AtomicLong();
        AtomicLong generatedOffReference = new AtomicLong();
        AtomicReference<String> firstOffReference = new AtomicReference<>("none");
        AtomicReference<String> firstError = new AtomicReference<>("none");
        AtomicLong clockReads = new AtomicLong();
        AtomicLong clockBackwards = new AtomicLong();
        AtomicLong published = new AtomicLong(Long.MIN_VALUE);
        java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
        volatileStop = false;

        List<Thread> clockers = new ArrayList<>();
        for (int c = 0; c < clockThreads; c++) {
            Thread t = new Thread(() -> {
                long n = 0;
                while (!volatileStop) {
                    long seen = published.get();
                    long now = System.nanoTime();
                    if (now < seen) {
                        clockBackwards.incrementAndGet();
                    }
                    published.accumulateAndGet(now, Math::max);
                    long before = ReferenceClocks.millis();
                    String off = Bracket.millis("millisOffReference", before, System.currentTimeMillis(), 1000, 1000);
                    if (off != null) {
                        millisOffReference.incrementAndGet();
                        firstOffReference.compareAndSet("none", off);
                    }
                    n++;
                }
                clockReads.addAndGet(n);
            }, "clock-" + c);
            t.setDaemon(true);
            clockers.add(t);
            t.start();
        }

        List<Thread> loaders = new ArrayList<>();
        for (int l = 0; l < loaderThreads; l++) {
            final int thread = l;
            Thread t = new Thread(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                // Classes i = thread, thread + loaderThreads, ...; a fresh loader every 10 classes.
                GenLoader loader = null;
                int inLoader = 0;
                for (int i = thread; i < classes; i += loaderThreads) {
                    if (loader == null || inLoader == 10) {
                        loader = new GenLoader(i % 20 < 10 ? ConcurrentLoadApp.class.getClassLoader() : null);
                        inLoader = 0;
                    }
                    inLoader++;
                    String name = "gen/p" + thread + "/Clocked" + i;
                    try {
                        Class<?> c = loader.define(name.replace('/', '.'), generate(name, i % 2 == 0));
                        Method run = c.getMethod("run");
                        long before = ReferenceClocks.millis();
                        String off = Bracket.millis("generatedOffReference", before, (long) run.invoke(null), 60_000, 60_000);
                        if (off != null) {
                            generatedOffReference.incrementAndGet();
                            firstOffReference.compareAndSet("none", off);
                        }
                        defined.incrementAndGet();
                    } catch (Throwable e) {
                        Throwable cause = e instanceof java.lang.reflect.InvocationTargetException ? e.getCause() : e;
                        if (cause instanceof ExceptionInInitializerError && cause.getCause() != null) {
                            cause = cause.getCause();
                        }
                        if (cause instanceof VerifyError) {
                            verifyErrors.incrementAndGet();
                        } else if (cause instanceof LinkageError) {
                            linkageErrors.incrementAndGet();
                        } else {
                            otherErrors.incrementAndGet();
                        }
                        firstError.compareAndSet("none", name + ": " + cause);
                    }
                }
            }, "loader-" + l);
            loaders.add(t);
            t.start();
        }
        long start = ReferenceClocks.nanos();
        go.countDown();
        for (Thread t : loaders) {
            t.join(60_000);
            if (t.isAlive()) {
                System.out.println("deadlock=" + t.getName() + " still defining after 60 s");
                for (StackTraceElement e : t.getStackTrace()) {
                    System.out.println("  at " + e);
                }
                System.out.flush();
                Runtime.getRuntime().halt(3);
            }
        }
        volatileStop = true;
        for (Thread t : clockers) {
            t.join(10_000);
        }
        System.out.println("elapsedMs=" + (ReferenceClocks.nanos() - start) / 1_000_000);
        System.out.println("defined=" + defined.get());
        System.out.println("verifyErrors=" + verifyErrors.get());
        System.out.println("linkageErrors=" + linkageErrors.get());
        System.out.println("otherErrors=" + otherErrors.get());
        System.out.println("firstError=" + firstError.get().replace('\n', ' '));
        System.out.println("millisOffReference=" + millisOffReference.get());
        System.out.println("generatedOffReference=" + generatedOffReference.get());
        System.out.println("firstOffReference=" + firstOffReference.get());
        System.out.println("clockReads=" + clockReads.get());
        System.out.println("clockBackwards=" + clockBackwards.get());
    }

    static volatile boolean volatileStop;

    /** A loader that defines what it is given; everything else from its parent (or the bootstrap). */
    static final class GenLoader extends ClassLoader {
        GenLoader(ClassLoader parent) {
            super(parent);
        }

        Class<?> define(String name, byte[] bytes) {
            return defineClass(name, bytes, 0, bytes.length);
        }
    }

    /**
     * public class NAME { public static long run() { return System.currentTimeMillis()
     * + (System.nanoTime() & 0) [+ (S1.getAsLong() & 0) + (S2.getAsLong() & 0)]; } }
     */
    static byte[] generate(String name, boolean indy) {
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        cw.visit(Opcodes.V11, Opcodes.ACC_PUBLIC | Opcodes.ACC_SUPER, name, null, "java/lang/Object", null);
        MethodVisitor init = cw.visitMethod(Opcodes.ACC_PUBLIC, "<init>", "()V", null, null);
        init.visitCode();
        init.visitVarInsn(Opcodes.ALOAD, 0);
        init.visitMethodInsn(Opcodes.INVOKESPECIAL, "java/lang/Object", "<init>", "()V", false);
        init.visitInsn(Opcodes.RETURN);
        init.visitMaxs(0, 0);
        init.visitEnd();

        MethodVisitor mv = cw.visitMethod(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "run", "()J", null, null);
        mv.visitCode();
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, "java/lang/System", "currentTimeMillis", "()J", false);
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, "java/lang/System", "nanoTime", "()J", false);
        mv.visitInsn(Opcodes.LCONST_0);
        mv.visitInsn(Opcodes.LAND);
        mv.visitInsn(Opcodes.LADD);
        if (indy) {
            Type longFn = Type.getMethodType("()J");
            String supplier = "()Ljava/util/function/LongSupplier;";
            // System::nanoTime
            mv.visitInvokeDynamicInsn("getAsLong", supplier, METAFACTORY, longFn,
                    new Handle(Opcodes.H_INVOKESTATIC, "java/lang/System", "nanoTime", "()J", false), longFn);
            mv.visitMethodInsn(Opcodes.INVOKEINTERFACE, "java/util/function/LongSupplier", "getAsLong", "()J", true);
            mv.visitInsn(Opcodes.LCONST_0);
            mv.visitInsn(Opcodes.LAND);
            mv.visitInsn(Opcodes.LADD);
            // () -> System.currentTimeMillis(), body in a synthetic method
            mv.visitInvokeDynamicInsn("getAsLong", supplier, METAFACTORY, longFn,
                    new Handle(Opcodes.H_INVOKESTATIC, name, "lambda$run$0", "()J", false), longFn);
            mv.visitMethodInsn(Opcodes.INVOKEINTERFACE, "java/util/function/LongSupplier", "getAsLong", "()J", true);
            mv.visitInsn(Opcodes.LCONST_0);
            mv.visitInsn(Opcodes.LAND);
            mv.visitInsn(Opcodes.LADD);
        }
        mv.visitInsn(Opcodes.LRETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();

        if (indy) {
            MethodVisitor lambda = cw.visitMethod(Opcodes.ACC_PRIVATE | Opcodes.ACC_STATIC | Opcodes.ACC_SYNTHETIC,
                    "lambda$run$0", "()J", null, null);
            lambda.visitCode();
            lambda.visitMethodInsn(Opcodes.INVOKESTATIC, "java/lang/System", "currentTimeMillis", "()J", false);
            lambda.visitInsn(Opcodes.LRETURN);
            lambda.visitMaxs(0, 0);
            lambda.visitEnd();
        }
        cw.visitEnd();
        return cw.toByteArray();
    }
}
