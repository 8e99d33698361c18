package io.fastclock.nativelib;

import io.fastclock.clock.NativeClocks;

import java.io.File;
import java.nio.file.Path;

/**
 * Extracts and loads libfastclock for {@link NativeClocks}.
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

    /** As {@link #load(String, ExtractionRoot)}, with java.io.tmpdir or another directory as the requested root. */
    public static Result load(String overridePath, Path tempRoot) {
        return load(overridePath, ExtractionRoot.of(tempRoot));
    }

    /**
     * @param overridePath a library to load instead of the bundled one (fastclock.library), or null
     * @param root where to create the private extraction directory (java.io.tmpdir, or where it
     *             says instead when that is not safe)
     *
     * <p>With System.load, from {@link NativeClocks}: the library belongs to the loader of the agent's
     * own module, which the agent (or, on the command line, the launcher) gave native access on
     * JDK 24+, so the JVM prints no restricted-method warning.
     */
    public static Result load(String overridePath, ExtractionRoot root) {
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
                    return new Result(ExtractionRoot.printable("cannot load the native library " + library + ": " + notLoadable),
                            null);
                }
            } else {
                extracted = NativeLibraryExtractor.extract(root);
                library = extracted;
            }
            NativeClocks.load(library.toString());
            return new Result(null, "System.load");
        } catch (Throwable e) {
            return new Result("cannot load the native library: " + ExtractionRoot.printable(e.toString()), null);
        } finally {
            NativeLibraryExtractor.cleanUp(extracted);
        }
    }
}
