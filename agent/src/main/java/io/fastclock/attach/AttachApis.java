package io.fastclock.attach;

import io.fastclock.config.OneLine;
import io.fastclock.nativelib.ExtractionRoot;
import io.fastclock.nativelib.JnaLoader;

import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * Makes the {@link AttachApi} for this JVM. Byte Buddy's agent library is relocated into
 * fastclock.jar's root, but its classes are never defined by the class loader that loaded the
 * commands: a private loader defines them (from the same jar's bytes) together with the adapter, so
 * that their references to {@code com.sun.jna} resolve to fastclock's private JNA where this JVM has
 * no jdk.attach (a JRE or jlink image), and to nothing at all where it has one (JNA is then never
 * extracted or loaded).
 */
public final class AttachApis {
    static final String ADAPTER = "io.fastclock.attach.hotspot.ByteBuddyAttachApi";
    private static final String[] PRIVATE_PREFIXES = {"io.fastclock.shaded.bytebuddy.agent.", "io.fastclock.attach.hotspot."};

    private AttachApis() {}

    private static boolean hasJdkAttach() {
        return hasModule("jdk.attach");
    }

    /**
     * jdk.attach where this JVM has it; else Byte Buddy's emulated attach over the private JNA where
     * JNA can load (it needs java.logging); else, on JDK 16+, Byte Buddy's protocol over a java.nio
     * UNIX socket. {@value #TRANSPORT_PROPERTY}=jdk_attach|jna|nio chooses (tests).
     */
    public static AttachApi forThisJvm() throws IOException {
        String transport = System.getProperty(TRANSPORT_PROPERTY, "").toUpperCase(java.util.Locale.ROOT);
        if (transport.isEmpty()) {
            transport = hasJdkAttach() ? "JDK_ATTACH" : hasModule("java.logging") || !nioSocketsAvailable() ? "JNA" : "NIO";
        }
        ClassLoader parent = AttachApis.class.getClassLoader();
        ClassLoader loader;
        if (transport.equals("JNA")) {
            ExtractionRoot root = ExtractionRoot.of(tempRoot());
            loader = JnaLoader.privateLoader(root, parent, PRIVATE_PREFIXES);
            if (root.notice() != null) {
                System.err.println(OneLine.prefixed(root.notice()));
            }
        } else {
            loader = JnaLoader.loaderWithoutJna(parent, PRIVATE_PREFIXES);
        }
        // The adapter, defined by that loader, implements AttachApi: this module shows that one package
        // to that loader alone (this module's packages are exported to no one else).
        AttachApis.class.getModule().addExports(AttachApi.class.getPackageName(), loader.getUnnamedModule());
        try {
            return (AttachApi) Class.forName(ADAPTER, true, loader).getConstructor(String.class).newInstance(transport);
        } catch (ReflectiveOperationException | LinkageError | IllegalArgumentException e) {
            throw new IOException("cannot load the attach library: " + e, e);
        }
    }

    static final String TRANSPORT_PROPERTY = "fastclock.attach.transport";

    private static boolean hasModule(String name) {
        return ModuleLayer.boot().findModule(name).isPresent();
    }

    private static boolean nioSocketsAvailable() {
        try {
            Class.forName("java.net.UnixDomainSocketAddress");
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    private static Path tempRoot() {
        return Paths.get(System.getProperty("java.io.tmpdir"));
    }
}
