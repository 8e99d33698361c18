package io.fastclock.it.apps;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;
import java.time.Instant;

/**
 * An agent given before fastclock that makes any later retransformation of java.time.Clock fail:
 * it loads Clock (Instant.now() in premain), then registers a retransformation-capable transformer
 * that returns a truncated class file for java/time/Clock whenever the class is being redefined.
 * fastclock, which covers Clock by retransforming it, must keep going without it.
 */
public final class BreakingRetransformAgent {
    static final byte[] BROKEN = {(byte) 0xCA, (byte) 0xFE, (byte) 0xBA, (byte) 0xBE, 0, 0};

    private BreakingRetransformAgent() {}

    public static void premain(String args, Instrumentation inst) {
        if (Instant.now().getEpochSecond() <= 0) {
            System.err.println("breaking-agent: impossible clock value");
        }
        inst.addTransformer(new ClassFileTransformer() {
            @Override
            public byte[] transform(ClassLoader loader, String name, Class<?> redefined, ProtectionDomain pd,
                    byte[] bytes) {
                return redefined != null && "java/time/Clock".equals(name) ? BROKEN.clone() : null;
            }
        }, true);
    }
}
