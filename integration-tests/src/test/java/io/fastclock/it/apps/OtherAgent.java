package io.fastclock.it.apps;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.nio.charset.StandardCharsets;
import java.security.ProtectionDomain;
import java.util.concurrent.atomic.AtomicInteger;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Opcodes;

/**
 * A second agent that also transforms classes (HostileEnvironmentIT packs it into a jar at test
 * time): it counts the test apps' classes it sees and adds a harmless static field
 * {@code otherAgentMark} to each with ASM, and remembers whether the bytes it was given for
 * OtherAgentApp already named fastclock's runtime (fastclock ran before it) or still
 * java/lang/System only.
 */
public final class OtherAgent {
    public static final AtomicInteger SEEN = new AtomicInteger();
    public static final AtomicInteger MARKED = new AtomicInteger();
    public static volatile String appBytesMention = "not seen";

    private OtherAgent() {}

    public static void premain(String args, Instrumentation inst) {
        inst.addTransformer(new ClassFileTransformer() {
            @Override
            public byte[] transform(ClassLoader loader, String name, Class<?> redefined, ProtectionDomain pd,
                    byte[] bytes) {
                if (name == null || !name.startsWith("io/fastclock/it/apps/") || name.startsWith("io/fastclock/it/apps/OtherAgent")
                        && !name.equals("io/fastclock/it/apps/OtherAgentApp")) {
                    return null;
                }
                SEEN.incrementAndGet();
                if (name.equals("io/fastclock/it/apps/OtherAgentApp")) {
                    String text = new String(bytes, StandardCharsets.ISO_8859_1);
                    appBytesMention = text.contains("io/fastclock/runtime/FastClock") ? "FastClock" : "System";
                }
                try {
                    ClassReader reader = new ClassReader(bytes);
                    ClassWriter writer = new ClassWriter(reader, 0);
                    reader.accept(new ClassVisitor(Opcodes.ASM9, writer) {
                        @Override
                        public void visitEnd() {
                            if ((reader.getAccess() & Opcodes.ACC_INTERFACE) == 0) {
                                visitField(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC | Opcodes.ACC_SYNTHETIC,
                                        "otherAgentMark", "Z", null, null).visitEnd();
                            }
                            super.visitEnd();
                        }
                    }, 0);
                    MARKED.incrementAndGet();
                    return writer.toByteArray();
                } catch (RuntimeException e) {
                    System.err.println("other-agent: " + name + ": " + e);
                    return null;
                }
            }
        });
        System.err.println("other-agent: installed");
    }
}
