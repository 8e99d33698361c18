package io.fastclock.it.apps;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Platform;

/** An application that brings its own JNA (5.13.0) on the class path and uses it while the agent runs. */
public final class OwnJnaApp {
    public interface CLib extends Library {
        int getpid();
    }

    public static void main(String[] args) {
        AgentVerdict.await();
        CLib c = Native.load(Platform.C_LIBRARY_NAME, CLib.class);
        System.out.println("ownJnaPid=" + c.getpid());
        System.out.println("javaPid=" + ProcessHandle.current().pid());
        System.out.println("ownJnaLocation=" + Native.class.getProtectionDomain().getCodeSource().getLocation());
        System.out.println("ownJnaFromAppLoader=" + (Native.class.getClassLoader() == ClassLoader.getSystemClassLoader()));
        System.out.println("backends=" + ReferenceClocks.backends().replace(' ', ','));
        System.out.println("millisInWindow=" + ContractCheck.millisInWindow(20_000));
    }

    /** Rewritten reads (jna-coarse when active) against the JDK's clock around them. */
    static final class ContractCheck {
        static String millisInWindow(int reads) {
            for (int i = 0; i < reads; i++) {
                long before = ReferenceClocks.millis();
                long read = System.currentTimeMillis();
                long after = ReferenceClocks.millis();
                if (read < before - 20 || read > after + 1) {
                    return "false: read " + read + " outside [" + (before - 20) + ", " + (after + 1) + "]";
                }
            }
            return "true";
        }
    }
}
