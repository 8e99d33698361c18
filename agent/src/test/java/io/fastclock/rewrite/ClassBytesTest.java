package io.fastclock.rewrite;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.Opcodes;

class ClassBytesTest {
    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    @Test
    void findsTheTextAnywhere() {
        assertTrue(ClassBytes.mentionsSystem(ascii("java/lang/System")));
        assertTrue(ClassBytes.mentionsSystem(ascii("xxjava/lang/System")));
        assertTrue(ClassBytes.mentionsSystem(ascii("Ljava/lang/System;")));
        assertTrue(ClassBytes.mentionsSystem(ascii("java/lang/Systejava/lang/System")));
        assertFalse(ClassBytes.mentionsSystem(ascii("java/lang/Syste")));
        assertFalse(ClassBytes.mentionsSystem(ascii("java/lang/SyStem java.lang.System")));
        assertFalse(ClassBytes.mentionsSystem(new byte[0]));
        assertFalse(ClassBytes.mentionsSystem(null));
    }

    @Test
    void utf8EntryCheckNeedsTheConstantPoolHeader() {
        byte[] entry = new byte[19];
        entry[0] = 1;
        entry[1] = 0;
        entry[2] = 16;
        System.arraycopy(ascii("java/lang/System"), 0, entry, 3, 16);
        assertTrue(ClassBytes.mentionsSystemClass(entry));
        assertFalse(ClassBytes.mentionsSystemClass(ascii("xxxjava/lang/System")));
        assertFalse(ClassBytes.mentionsSystemClass(ascii("java/lang/System")), "no room for the header");
        byte[] descriptor = entry.clone();
        descriptor[2] = 18; // as for Ljava/lang/System; (length 18)
        assertFalse(ClassBytes.mentionsSystemClass(descriptor));
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
            assertEquals(s.contains("java/lang/System"), ClassBytes.mentionsSystem(b), s);
            assertEquals(s.contains("\u0001\u0000\u0010java/lang/System"), ClassBytes.mentionsSystemClass(b), s);
        }
    }

    @Test
    void realClassFiles() {
        GeneratedClasses gen = new GeneratedClasses(Opcodes.V11);
        assertTrue(ClassBytes.mentionsSystemClass(gen.classes.get(gen.main)));
        byte[] stub = GeneratedClasses.stubFastClock();
        assertFalse(ClassBytes.mentionsSystem(stub));
        assertFalse(ClassBytes.mentionsSystemClass(stub));
    }
}
