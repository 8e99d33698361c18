package io.fastclock.rewrite;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.Opcodes;

/** The transformer's byte pre-filter, {@link ClassBytes#mentionsAnyClass}, on the table's owners. */
class ClassBytesTest {
    private static final byte[][] SYSTEM = ClassBytes.asciiNames("java/lang/System");
    private static final byte[][] OWNERS = ClassBytes.asciiNames(ClockReplacements.all().owners());

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    /** A constant-pool UTF-8 entry: tag 1, two-byte length, the text. */
    private static byte[] entry(String text) {
        byte[] t = ascii(text);
        byte[] e = new byte[t.length + 3];
        e[0] = 1;
        e[1] = 0;
        e[2] = (byte) t.length;
        System.arraycopy(t, 0, e, 3, t.length);
        return e;
    }

    @Test
    void onlyAConstantPoolEntryThatIsExactlyTheNameCounts() {
        assertTrue(ClassBytes.mentionsAnyClass(entry("java/lang/System"), SYSTEM));
        assertFalse(ClassBytes.mentionsAnyClass(ascii("xxxjava/lang/System"), SYSTEM));
        assertFalse(ClassBytes.mentionsAnyClass(ascii("java/lang/System"), SYSTEM), "no room for the header");
        byte[] descriptor = entry("java/lang/System");
        descriptor[2] = 18; // as for Ljava/lang/System; (length 18)
        assertFalse(ClassBytes.mentionsAnyClass(descriptor, SYSTEM));
        assertFalse(ClassBytes.mentionsAnyClass(entry("java/lang/System$Logger"), SYSTEM));
        assertFalse(ClassBytes.mentionsAnyClass(new byte[0], SYSTEM));
        assertFalse(ClassBytes.mentionsAnyClass(null, SYSTEM));
    }

    @Test
    void anyOwnerOfTheTableCounts() {
        assertTrue(ClassBytes.mentionsAnyClass(entry("java/lang/System"), OWNERS));
        assertTrue(ClassBytes.mentionsAnyClass(entry("jdk/internal/misc/VM"), OWNERS));
        assertFalse(ClassBytes.mentionsAnyClass(entry("jdk/internal/misc/VMX"), OWNERS));
        assertFalse(ClassBytes.mentionsAnyClass(entry("jdk/internal/misc/Unsafe"), OWNERS));
    }

    @Test
    void agreesWithANaiveSearchOnRandomInput() {
        Random r = new Random(42);
        byte[] needle = ascii("java/lang/System");
        for (int round = 0; round < 2000; round++) {
            byte[] b = new byte[r.nextInt(80)];
            for (int i = 0; i < b.length; i++) {
                b[i] = (byte) "jav/lngSystem\u0001\u0000\u0010".charAt(r.nextInt(16));
            }
            if (b.length >= 19 && r.nextBoolean()) {
                int at = r.nextInt(b.length - 18);
                b[at] = 1;
                b[at + 1] = 0;
                b[at + 2] = 16;
                System.arraycopy(needle, 0, b, at + 3, 16);
            }
            String s = new String(b, StandardCharsets.ISO_8859_1);
            assertEquals(s.contains("\u0001\u0000\u0010java/lang/System"), ClassBytes.mentionsAnyClass(b, SYSTEM), s);
        }
    }

    @Test
    void realClassFiles() {
        GeneratedClasses gen = new GeneratedClasses(Opcodes.V11);
        assertTrue(ClassBytes.mentionsAnyClass(gen.classes.get(gen.main), OWNERS));
        assertFalse(ClassBytes.mentionsAnyClass(GeneratedClasses.stubFastClock(), OWNERS));
    }
}
