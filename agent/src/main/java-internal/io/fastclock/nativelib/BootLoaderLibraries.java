package io.fastclock.nativelib;

import java.io.File;

import jdk.internal.loader.BootLoader;
import jdk.internal.loader.NativeLibraries;

/**
 * The boot loader's native libraries, called directly rather than through reflection (compiled
 * apart with add-exports, like BootClassDefiner): JDK 18+ turns each reflective call into method
 * handles at first use. Needs java.base to export jdk.internal.loader to the agent's module first.
 * JDK 15 and older have no NativeLibraries: the first call then fails to link (NoClassDefFoundError
 * or NoSuchMethodError) and the caller uses reflection or System.load.
 */
public final class BootLoaderLibraries {
    private BootLoaderLibraries() {}

    /** jdk.internal.loader.NativeLibraries of the boot loader. */
    public static Object get() {
        return BootLoader.getNativeLibraries();
    }

    /** Loads the library for fromClass (a boot-loader class); false if the JVM refused it. */
    public static boolean load(Object bootLibraries, Class<?> fromClass, File library) {
        return ((NativeLibraries) bootLibraries).loadLibrary(fromClass, library) != null;
    }
}
