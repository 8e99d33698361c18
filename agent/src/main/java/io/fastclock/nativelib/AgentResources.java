package io.fastclock.nativelib;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.security.CodeSource;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;

/**
 * Reads resources of the agent's own jar directly through {@link JarFile}: at JVM start-up the
 * class loader's URL path (JarURLConnection and friends) costs a few milliseconds of class loading
 * that this avoids. Falls back to getResourceAsStream when the classes are not in a jar (tests).
 */
public final class AgentResources {
    private static volatile File jarFile = locate();

    private AgentResources() {}

    private static File locate() {
        try {
            CodeSource source = AgentResources.class.getProtectionDomain().getCodeSource();
            URL location = source == null ? null : source.getLocation();
            if (location == null || !"file".equals(location.getProtocol())) {
                return null;
            }
            File file = new File(location.toURI());
            return file.isFile() ? file : null;
        } catch (Exception | LinkageError e) {
            return null;
        }
    }

    /** @param path resource path without a leading slash; @return its bytes, or null if absent */
    public static byte[] read(String path) throws IOException {
        File jar = jarFile;
        if (jar != null) {
            try (JarFile jf = new JarFile(jar, false)) {
                ZipEntry entry = jf.getEntry(path);
                if (entry == null) {
                    return null;
                }
                try (InputStream in = jf.getInputStream(entry)) {
                    return readAll(in);
                }
            }
        }
        try (InputStream in = AgentResources.class.getResourceAsStream("/" + path)) {
            return in == null ? null : readAll(in);
        }
    }

    /** Where the jar keeps classes (as .classdata, so that no class loader of the application finds them). */
    public static final String CLASSES = "META-INF/fastclock/classes/";

    /**
     * Class files ("a/b/C.class") of the agent: from their .classdata entries in the jar, or as
     * resources when the classes are not in a jar (tests).
     */
    public static byte[][] readClasses(String[] classPaths) throws IOException {
        if (jarFile == null) {
            return readAll(classPaths);
        }
        String[] entries = new String[classPaths.length];
        for (int i = 0; i < classPaths.length; i++) {
            String p = classPaths[i];
            entries[i] = CLASSES + p.substring(0, p.length() - ".class".length()) + ".classdata";
        }
        return readAll(entries);
    }

    /** Several resources with one opening of the jar; a missing one fails. */
    public static byte[][] readAll(String[] paths) throws IOException {
        byte[][] out = new byte[paths.length][];
        File jar = jarFile;
        if (jar == null) {
            for (int i = 0; i < paths.length; i++) {
                out[i] = require(read(paths[i]), paths[i]);
            }
            return out;
        }
        try (JarFile jf = new JarFile(jar, false)) {
            for (int i = 0; i < paths.length; i++) {
                ZipEntry entry = jf.getEntry(paths[i]);
                if (entry == null) {
                    throw new IOException("the agent jar has no " + paths[i]);
                }
                try (InputStream in = jf.getInputStream(entry)) {
                    out[i] = readAll(in);
                }
            }
        }
        return out;
    }

    private static byte[] require(byte[] bytes, String path) throws IOException {
        if (bytes == null) {
            throw new IOException("the agent has no " + path);
        }
        return bytes;
    }

    private static byte[] readAll(InputStream in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        in.transferTo(out);
        return out.toByteArray();
    }
}
