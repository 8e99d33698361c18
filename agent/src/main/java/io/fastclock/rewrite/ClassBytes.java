package io.fastclock.rewrite;

/**
 * Cheap checks on raw class-file bytes, done before any parsing. Most classes an application loads
 * never touch {@code java/lang/System}; they are rejected here by a byte scan, without building an
 * ASM {@code ClassReader}.
 */
public final class ClassBytes {
    private ClassBytes() {}

    /**
     * Whether the constant pool (as far as a byte scan can tell) holds a UTF-8 entry that is exactly
     * one of these class names (internal form, ASCII): tag 1, the two-byte length, then the text. A
     * {@code CONSTANT_Class} for an owner, which every call to one of its methods needs, names such
     * an entry; descriptors ({@code Ljava/lang/System;}) and nested names ({@code
     * java/lang/System$Logger}) do not count. Never a false negative for a well-formed class file
     * (for names of at most 127 bytes, as the replacement table's owners are); a false positive (the
     * same bytes inside some other data) only costs a parse.
     */
    public static boolean mentionsAnyClass(byte[] classfile, byte[][] internalNames) {
        if (classfile == null) {
            return false;
        }
        for (byte[] name : internalNames) {
            if (indexOf(classfile, 0, true, name) >= 0) {
                return true;
            }
        }
        return false;
    }

    /** The names as the ASCII bytes {@link #mentionsAnyClass} takes. */
    public static byte[][] asciiNames(String... internalNames) {
        byte[][] out = new byte[internalNames.length][];
        for (int i = 0; i < out.length; i++) {
            out[i] = ascii(internalNames[i]);
        }
        return out;
    }

    /**
     * The bytes of a name of the class file format's that is ASCII (the runtime's own table), one per char.
     * Not through a Charset: StandardCharsets' initialiser loads five charsets, before main where premain
     * installs the transformer.
     */
    @SuppressWarnings("deprecation")
    static byte[] ascii(String s) {
        byte[] out = new byte[s.length()];
        s.getBytes(0, s.length(), out, 0);
        return out;
    }

    /**
     * Index of the first occurrence of {@code n} at or after {@code from}, or -1. When
     * {@code utf8Entry} is set, only matches preceded by the bytes {@code 01 00 length} count.
     */
    static int indexOf(byte[] b, int from, boolean utf8Entry, byte[] n) {
        final int nlen = n.length;
        final int last = b.length - nlen;
        // Scan for the last byte, then compare the rest.
        final int pivot = nlen - 1;
        final byte pb = n[pivot];
        int start = Math.max(from, utf8Entry ? 3 : 0);
        outer:
        for (int i = start + pivot, end = last + pivot; i <= end; i++) {
            if (b[i] != pb) {
                continue;
            }
            int s = i - pivot;
            for (int j = 0; j < nlen; j++) {
                if (b[s + j] != n[j]) {
                    continue outer;
                }
            }
            if (utf8Entry && (b[s - 3] != 1 || b[s - 2] != 0 || b[s - 1] != nlen)) {
                continue;
            }
            return s;
        }
        return -1;
    }
}
