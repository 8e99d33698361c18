package io.fastclock.asm;

import io.fastclock.rewrite.ClassRewriter;
import io.fastclock.rewrite.ClockReplacements;
import io.fastclock.rewrite.Rewritten;

/**
 * {@link ClockCallRewriter} as the transformer's fallback, in a class of its own: ClockCallRewriter
 * extends ASM's ClassVisitor, so naming it loads ASM, which only the rare class the constant-pool
 * rewrite cannot take should cost (DESIGN-NOTES note 6).
 */
public final class AsmFallback implements ClassRewriter {
    public static final AsmFallback INSTANCE = new AsmFallback();

    private AsmFallback() {}

    @Override
    public Rewritten rewrite(byte[] classfile, ClockReplacements table) {
        return ClockCallRewriter.rewriteCounting(classfile, table);
    }
}
