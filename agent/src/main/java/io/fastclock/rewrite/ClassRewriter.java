package io.fastclock.rewrite;

/**
 * A rewrite of a whole class file with the rows of a table: what the transformer falls back on
 * where {@link ConstantPoolRewriter} cannot give the same result (asm.ClockCallRewriter, in the
 * agent's module: ASM is never defined in the boot loader).
 */
public interface ClassRewriter {
    /**
     * @return the rewritten class, or null when it has nothing to rewrite
     * @throws RuntimeException on a class file it cannot read
     */
    Rewritten rewrite(byte[] classfile, ClockReplacements table);
}
