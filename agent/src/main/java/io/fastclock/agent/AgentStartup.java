package io.fastclock.agent;

import io.fastclock.nativelib.NativeLibraryExtractor;
import io.fastclock.nativelib.NativeLibraryLoader;
import io.fastclock.runtime.FastClock;
import io.fastclock.runtime.NativeClocks;

import java.lang.instrument.Instrumentation;

/** Temporary wiring check: loads the native library into the boot loader. */
final class AgentStartup {
    private AgentStartup() {}

    static void start(String args, Instrumentation inst, Object bootNativeLibraries) {
        NativeLibraryLoader.Result r = NativeLibraryLoader.load(null, NativeLibraryExtractor.defaultTempRoot(), bootNativeLibraries);
        System.err.println("fastclock: native " + (r.loaded() ? "loaded via " + r.how : r.problem)
                + " loader=" + FastClock.class.getClassLoader() + " coarse=" + (r.loaded() ? NativeClocks.realtimeCoarseMillis() : -1));
    }
}
