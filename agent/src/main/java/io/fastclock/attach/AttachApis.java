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
     * The transport asked for, where this runtime has what it needs; else, when none is asked for,
     * jdk.attach where this JVM has it; else Byte Buddy's emulated attach over the private JNA where
     * JNA can load (it needs java.logging); else, on JDK 16+, Byte Buddy's protocol over a java.nio
     * UNIX socket.
     *
     * @param asked the transport named on the command line, or null to choose
     * @throws IOException naming what this runtime lacks for the transport asked for
     */
    public static AttachApi forThisJvm(AttachTransport asked) throws IOException {
        AttachTransport transport;
        String why;
        if (asked != null) {
            String lacks = lacks(asked);
            if (lacks != null) {
                throw new IOException("the " + asked.optionValue() + " transport needs " + lacks);
            }
            transport = asked;
            why = "as asked";
        } else if (hasJdkAttach()) {
            transport = AttachTransport.JDK_ATTACH;
            why = null;
        } else if (hasModule("java.logging") || !nioSocketsAvailable()) {
            transport = AttachTransport.JNA;
            why = "this JVM has no jdk.attach";
        } else {
            transport = AttachTransport.NIO;
            why = "this JVM has neither jdk.attach nor java.logging for JNA";
        }
        String mechanism = transport.description + (why == null ? "" : " (" + why + ")");
        ClassLoader parent = AttachApis.class.getClassLoader();
        ClassLoader loader;
        if (transport == AttachTransport.JNA) {
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
            return (AttachApi) Class.forName(ADAPTER, true, loader).getConstructor(AttachTransport.class, String.class)
                    .newInstance(transport, mechanism);
        } catch (ReflectiveOperationException | LinkageError | IllegalArgumentException e) {
            throw new IOException("cannot load the attach library: " + e, e);
        }
    }

    /** What this runtime lacks for a transport ("the jdk.attach module, which this runtime lacks"), or null. */
    private static String lacks(AttachTransport transport) {
        switch (transport) {
            case JDK_ATTACH:
                return hasJdkAttach() ? null : "the jdk.attach module, which this runtime lacks";
            case JNA:
                return hasModule("java.logging") ? null : "the java.logging module (JNA uses it), which this runtime lacks";
            case NIO:
            default:
                return nioSocketsAvailable() ? null : "UNIX-domain sockets in java.nio (JDK 16 or later)";
        }
    }

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
