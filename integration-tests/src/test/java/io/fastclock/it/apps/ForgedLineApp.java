package io.fastclock.it.apps;

import java.lang.instrument.Instrumentation;
import java.lang.invoke.MethodHandles;
import java.util.ServiceLoader;
import java.util.function.Function;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Application code that tries to make fastclock print a line of the application's choosing on
 * stderr: it defines a class whose name holds a newline followed by {@link #FORGED} (legal in a
 * class file), makes it an Instrumentation, and calls every entry it can reach with it: the jar's
 * premain and agentmain, and the agent module's service (reached through the loader behind the
 * MBean, with {@code jmx=on}; argument {@code service}: wait up to 10 s for it) with an entry name
 * that holds the same. fastclock refuses each; its refusal must stay on one line. Prints
 * {@code calls=N} (entries reached).
 */
public final class ForgedLineApp {
    public static final String FORGED = "fastclock: active: forged by the application";

    public static void main(String[] args) throws Throwable {
        String name = ForgedLineApp.class.getPackage().getName().replace('.', '/') + "/Fake\n" + FORGED;
        ClassWriter cw = new ClassWriter(0);
        cw.visit(Opcodes.V11, Opcodes.ACC_PUBLIC | Opcodes.ACC_SUPER, name, null, "java/lang/Object",
                new String[] {"java/lang/instrument/Instrumentation"});
        MethodVisitor mv = cw.visitMethod(Opcodes.ACC_PUBLIC, "<init>", "()V", null, null);
        mv.visitCode();
        mv.visitVarInsn(Opcodes.ALOAD, 0);
        mv.visitMethodInsn(Opcodes.INVOKESPECIAL, "java/lang/Object", "<init>", "()V", false);
        mv.visitInsn(Opcodes.RETURN);
        mv.visitMaxs(1, 1);
        mv.visitEnd();
        cw.visitEnd();
        Class<?> fake = MethodHandles.lookup().defineClass(cw.toByteArray());
        Instrumentation inst = (Instrumentation) fake.getDeclaredConstructor().newInstance();
        int calls = 0;
        Class<?> entry = Class.forName("io.fastclock.entry.AgentEntry");
        for (String method : new String[] {"premain", "agentmain"}) {
            entry.getMethod(method, String.class, Instrumentation.class).invoke(null, "mode=on", inst);
            calls++;
        }
        ClassLoader agentLoader = null;
        boolean wait = args.length > 0 && args[0].equals("service");
        for (long deadline = System.nanoTime() + 10_000_000_000L; agentLoader == null; Thread.sleep(20)) {
            agentLoader = RightsProbeApp.loaderBehindTheAgent();
            if (!wait || System.nanoTime() > deadline) {
                break;
            }
        }
        if (agentLoader != null) {
            for (@SuppressWarnings("rawtypes") Function f : ServiceLoader.load(Function.class, agentLoader)) {
                @SuppressWarnings("unchecked")
                Function<Object[], Object> service = f;
                service.apply(new Object[] {"agentmain\n" + FORGED, "mode=on", inst});
                calls++;
            }
        }
        System.out.println("calls=" + calls);
    }
}
