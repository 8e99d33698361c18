package io.fastclock.attach;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * How this JVM reaches HotSpot's attach listener in another: chosen by {@link AttachApis} from what
 * this runtime has, or named by the commands' {@code --transport}.
 */
public enum AttachTransport {
    /** The JDK's own attach API (Byte Buddy's ForModularizedVm). */
    JDK_ATTACH("jdk.attach"),
    /** Byte Buddy's emulated attach: its HotSpot protocol over JNA (fastclock's private copy). */
    JNA("Byte Buddy's HotSpot attach protocol over fastclock's private JNA"),
    /** Byte Buddy's HotSpot protocol over a java.nio UNIX-domain socket (JDK 16+). */
    NIO("Byte Buddy's HotSpot attach protocol over a java.nio UNIX socket");

    /** What the commands print after "through". */
    final String description;

    AttachTransport(String description) {
        this.description = description;
    }

    /** "jdk_attach": how a command line names it. */
    public String optionValue() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The transport a command line names ({@link #optionValue()}), or null for any other word. */
    public static AttachTransport named(String value) {
        for (AttachTransport transport : values()) {
            if (transport.optionValue().equals(value)) {
                return transport;
            }
        }
        return null;
    }

    /** "jdk_attach, jna or nio". */
    public static String choices() {
        List<String> names = new ArrayList<>();
        for (AttachTransport transport : values()) {
            names.add(transport.optionValue());
        }
        return String.join(", ", names.subList(0, names.size() - 1)) + " or " + names.get(names.size() - 1);
    }
}
