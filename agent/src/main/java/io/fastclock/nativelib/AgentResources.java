package io.fastclock.nativelib;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.function.Function;

/**
 * The agent's own jar, as the entry read it before any application code ran (the hand-off gives it,
 * {@link #from}): the native library, the nested JNA and the boot runtime's classes come from there,
 * never from the jar's path again (a file read after main starts may no longer be the file the JVM
 * started from). Where the agent's classes are not in a jar (unit tests), they and their resources come
 * from the class path.
 */
public final class AgentResources {
    private static volatile Function<String, byte[]> jar;

    private AgentResources() {}

    /** The entry's read of the jar, given once, before anything here is read. */
    public static void from(Function<String, byte[]> read) {
        if (jar == null) {
            jar = read;
        }
    }

    /** @param path an entry's name, without a leading slash; @return its bytes, or null if absent */
    public static byte[] read(String path) throws IOException {
        Function<String, byte[]> read = jar;
        if (read != null) {
            try {
                return read.apply(path);
            } catch (UncheckedIOException e) {
                throw e.getCause();
            }
        }
        try (InputStream in = AgentResources.class.getResourceAsStream("/" + path)) {
            return in == null ? null : readAll(in);
        }
    }

    /** Class files ("a/b/C.class") of the agent: from their .classdata entries in the jar, or from the class path. */
    public static byte[][] readClasses(String[] classPaths) throws IOException {
        byte[][] out = new byte[classPaths.length][];
        for (int i = 0; i < classPaths.length; i++) {
            out[i] = read(classPaths[i]);
            if (out[i] == null) {
                throw new IOException("the agent has no " + classPaths[i]);
            }
        }
        return out;
    }

    /** {@link #read} as a function of a class's resource name, null where there is none. */
    public static Function<String, byte[]> classFiles() {
        return CLASS_FILES;
    }

    /** A class, not a method reference: no lambda is linked at start-up. */
    private static final Function<String, byte[]> CLASS_FILES = new Function<String, byte[]>() {
        @Override
        public byte[] apply(String resource) {
            try {
                return read(resource);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    };

    private static byte[] readAll(InputStream in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        in.transferTo(out);
        return out.toByteArray();
    }
}
