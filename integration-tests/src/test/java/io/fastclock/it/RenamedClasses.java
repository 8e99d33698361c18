package io.fastclock.it;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

/**
 * Test classes under other names, for apps that play an attacker (TheftIT): a template compiled in
 * io.fastclock.it.apps becomes, say, io/fastclock/entry/PrivateModule. The rename is done in the
 * constant pool, where every name, descriptor and signature of a class file is spelled (its
 * CONSTANT_Utf8 entries), so a template must not spell its own name in any other string.
 */
final class RenamedClasses {
    private RenamedClasses() {}

    /** The class file of {@code template} (a test class) with each key of {@code names} replaced by its value. */
    static byte[] renamed(Class<?> template, Map<String, String> names) throws IOException {
        byte[] bytes = Files.readAllBytes(ForkedJvm.testClasses().resolve(internalName(template) + ".class"));
        return rename(bytes, names);
    }

    /** The class file of {@code template} named {@code newInternalName}. */
    static byte[] renamed(Class<?> template, String newInternalName) throws IOException {
        return renamed(template, Map.of(internalName(template), newInternalName));
    }

    static String internalName(Class<?> c) {
        return c.getName().replace('.', '/');
    }

    static byte[] rename(byte[] classFile, Map<String, String> names) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(classFile));
        ByteArrayOutputStream buffer = new ByteArrayOutputStream(classFile.length + 64);
        DataOutputStream out = new DataOutputStream(buffer);
        out.writeInt(in.readInt()); // magic
        out.writeInt(in.readInt()); // minor and major version
        int count = in.readUnsignedShort();
        out.writeShort(count);
        for (int i = 1; i < count; i++) {
            int tag = in.readUnsignedByte();
            out.writeByte(tag);
            switch (tag) {
                case 1: // Utf8
                    String s = in.readUTF();
                    for (Map.Entry<String, String> e : names.entrySet()) {
                        s = s.replace(e.getKey(), e.getValue());
                    }
                    out.writeUTF(s);
                    break;
                case 7: case 8: case 16: case 19: case 20: // Class, String, MethodType, Module, Package
                    copy(in, out, 2);
                    break;
                case 15: // MethodHandle
                    copy(in, out, 3);
                    break;
                case 3: case 4: case 9: case 10: case 11: case 12: case 17: case 18:
                    copy(in, out, 4);
                    break;
                case 5: case 6: // Long, Double: two entries
                    copy(in, out, 8);
                    i++;
                    break;
                default:
                    throw new IOException("unknown constant pool tag " + tag);
            }
        }
        in.transferTo(out);
        return buffer.toByteArray();
    }

    private static void copy(DataInputStream in, DataOutputStream out, int n) throws IOException {
        byte[] b = new byte[n];
        in.readFully(b);
        out.write(b);
    }

    /** Writes each class file under {@code dir} by its internal name ({@code dir/a/b/C.class}). */
    static Path write(Path dir, Map<String, byte[]> classes) throws IOException {
        for (Map.Entry<String, byte[]> e : classes.entrySet()) {
            Path file = dir.resolve(e.getKey() + ".class");
            Files.createDirectories(file.getParent());
            Files.write(file, e.getValue());
        }
        return dir;
    }

    /** A jar of these class files, by internal name. */
    static Path jar(Path jar, Map<String, byte[]> classes) throws IOException {
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            for (Map.Entry<String, byte[]> e : classes.entrySet()) {
                out.putNextEntry(new JarEntry(e.getKey() + ".class"));
                out.write(e.getValue());
                out.closeEntry();
            }
        }
        return jar;
    }
}
