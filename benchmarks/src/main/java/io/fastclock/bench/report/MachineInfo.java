package io.fastclock.bench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import com.google.gson.GsonBuilder;
import io.fastclock.measure.NativeCostMeter;
import io.fastclock.measure.TscRead;
import io.fastclock.measure.TscReadChoice;
import io.fastclock.nativelib.JnaLoader;
import io.fastclock.nativelib.NativeLibraryExtractor;
import io.fastclock.nativelib.NativeLibraryLoader;
import io.fastclock.runtime.MillisClock;
import io.fastclock.clock.NativeClocks;

/**
 * MachineInfo OUT: what the report needs to know about the benchmarked machine that JMH's JSON does
 * not record, written by run.sh next to the results: the coarse clocks' tick (clock_getres), so that
 * "what it gives up" states this machine's tick instead of a guess; each read timed in C and the TSC
 * reads the agent would choose, for the limit rows. A value that cannot be read is
 * left out and the report phrases it generally.
 */
public final class MachineInfo {
    private MachineInfo() {}

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            throw new IllegalArgumentException("usage: MachineInfo OUT.json");
        }
        Map<String, Object> info = new LinkedHashMap<>();
        info.put("cpus", Runtime.getRuntime().availableProcessors());
        NativeLibraryLoader.Result jni = NativeLibraryLoader.load(null, NativeLibraryExtractor.defaultTempRoot());
        if (jni.loaded()) {
            putIfKnown(info, "realtimeCoarseResolutionNs", NativeClocks.clockGetres(NativeClocks.CLOCK_REALTIME_COARSE));
            putIfKnown(info, "monotonicCoarseResolutionNs", NativeClocks.clockGetres(NativeClocks.CLOCK_MONOTONIC_COARSE));
            info.put("resolutionSource", "clock_getres through libfastclock (JNI)");
            if (NativeClocks.isX86()) {
                // What the limit rows need: each TSC read and the coarse clock timed in C, and the
                // read the agent's TSC clock would choose for nanoTime and millis here.
                TscReadChoice choice = TscReadChoice.measure();
                Map<String, Object> reads = new LinkedHashMap<>();
                NativeCostMeter meter = new NativeCostMeter(7, 20_000);
                for (TscRead r : TscRead.values()) {
                    reads.put(r.name(), meter.nanosPerCall(r.pseudoClockId));
                }
                reads.put("REALTIME_COARSE", meter.nanosPerCall(NativeClocks.CLOCK_REALTIME_COARSE));
                info.put("readNanosInC", reads);
                info.put("tscNanosRead", choice.nanos.name());
                info.put("tscMillisRead", choice.millis.name());
            }
        } else {
            JnaLoader.Result jna = JnaLoader.load(NativeLibraryExtractor.defaultTempRoot(), MillisClock.class.getClassLoader());
            if (jna.available()) {
                putIfKnown(info, "realtimeCoarseResolutionNs", jna.coarseResolutionNanos());
                info.put("resolutionSource", "clock_getres through JNA");
            } else {
                info.put("resolutionProblem", jni.problem + "; " + jna.problem);
            }
        }
        Files.writeString(Path.of(args[0]), new GsonBuilder().setPrettyPrinting().create().toJson(info));
        System.err.println("MachineInfo: " + info + " -> " + args[0]);
    }

    private static void putIfKnown(Map<String, Object> info, String key, long nanos) {
        if (nanos > 0) {
            info.put(key, nanos);
        }
    }
}
