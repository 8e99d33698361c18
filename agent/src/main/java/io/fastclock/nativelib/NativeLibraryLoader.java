package io.fastclock.nativelib;

import io.fastclock.runtime.NativeClocks;

import java.io.File;
import java.nio.file.Path;

/**
 * Extracts and loads libfastclock for {@link NativeClocks}, wherever that class was defined.
 * Returns a problem description instead of throwing: the caller falls back to the system clocks.
 */
public final class NativeLibraryLoader {
    private NativeLibraryLoader() {}

    /** Result of a load attempt: null problem = loaded. */
    public static final class Result {
        public final String problem;
        public final String how;

        Result(String problem, String how) {
            this.problem = problem;
            this.how = how;
        }

        public boolean loaded() {
            return problem == null;
        }
    }

    /**
     * @param overridePath a library to load instead of the bundled one (fastclock.library), or null
     * @param tempRoot where to create the private extraction directory
     * @param bootLoaderLibraries the JDK's jdk.internal.loader.NativeLibraries of the boot loader
     *                            when the agent made it reachable (loads without JDK 24+'s restricted
     *                            method warning), else null to use System.load
     */
    public static Result load(String overridePath, Path tempRoot, Object bootLoaderLibraries) {
        if (NativeClocks.isLoaded()) {
            return new Result(null, "already loaded");
        }
        Path extracted = null;
        try {
            Path library;
            if (overridePath != null) {
                library = new File(overridePath).getAbsoluteFile().toPath();
                String notLoadable = ElfCheck.problem(library);
                if (notLoadable != null) {
                    return new Result("cannot load the native library " + library + ": " + notLoadable, null);
                }
            } else {
                extracted = NativeLibraryExtractor.extract(tempRoot);
                library = extracted;
            }
            String how;
            if (bootLoaderLibraries != null) {
                if (!BootLoaderLibraries.load(bootLoaderLibraries, NativeClocks.class, library.toFile())) {
                    return new Result("the JVM refused to load " + library, null);
                }
                how = "boot loader";
            } else {
                NativeClocks.load(library.toString());
                how = "System.load";
            }
            NativeClocks.markLoaded();
            return new Result(null, how);
        } catch (Throwable e) {
            return new Result("cannot load the native library: " + e, null);
        } finally {
            NativeLibraryExtractor.cleanUp(extracted);
        }
    }
}
