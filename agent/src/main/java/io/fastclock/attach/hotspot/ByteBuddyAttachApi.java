package io.fastclock.attach.hotspot;

import io.fastclock.attach.AttachApi;
import net.bytebuddy.agent.ByteBuddyAgent;
import net.bytebuddy.agent.VirtualMachine;

import java.io.File;
import java.io.IOException;
import java.util.Properties;

/**
 * Attach through Byte Buddy's agent library: jdk.attach where this JVM has it, else Byte Buddy's own
 * implementation of HotSpot's attach protocol, which reaches the target's socket through JNA (the
 * private JNA this class's loader sees). Defined only by that loader (AttachApis).
 */
public final class ByteBuddyAttachApi implements AttachApi {
    /** How this JVM reaches HotSpot's attach listener. */
    public enum Transport {
        /** The JDK's own attach API (Byte Buddy's ForModularizedVm). */
        JDK_ATTACH("jdk.attach"),
        /** Byte Buddy's emulated attach: its HotSpot protocol over JNA (fastclock's private copy). */
        JNA("Byte Buddy's HotSpot attach protocol over fastclock's private JNA (this JVM has no jdk.attach)"),
        /** Byte Buddy's HotSpot protocol over a java.nio UNIX-domain socket (JDK 16+). */
        NIO("Byte Buddy's HotSpot attach protocol over a java.nio UNIX socket (this JVM has neither jdk.attach nor java.logging for JNA)");

        final String description;

        Transport(String description) {
            this.description = description;
        }
    }

    private final Transport transport;

    public ByteBuddyAttachApi(String transport) {
        this.transport = Transport.valueOf(transport);
    }

    @Override
    public Properties[] systemAndAgentProperties(String pid) throws IOException {
        if (transport == Transport.JDK_ATTACH) {
            return JdkAttachProperties.read(pid);
        }
        VirtualMachine vm = emulated(pid);
        try {
            return new Properties[] {vm.getSystemProperties(), vm.getAgentProperties()};
        } finally {
            vm.detach();
        }
    }

    @Override
    public void loadAgent(String pid, File jar, String args) throws IOException {
        if (transport == Transport.NIO) {
            VirtualMachine vm = emulated(pid);
            try {
                vm.loadAgent(jar.getAbsolutePath(), args);
            } finally {
                vm.detach();
            }
            return;
        }
        ByteBuddyAgent.AttachmentProvider provider = transport == Transport.JDK_ATTACH
                ? ByteBuddyAgent.AttachmentProvider.ForModularizedVm.INSTANCE
                : ByteBuddyAgent.AttachmentProvider.ForEmulatedAttachment.INSTANCE;
        try {
            ByteBuddyAgent.attach(jar, pid, args, provider);
        } catch (IllegalStateException e) {
            // Byte Buddy wraps what went wrong ("Error during attachment using: ..."); the cause says it.
            throw new IOException(e.getCause() != null ? e.getCause() : e);
        }
    }

    private VirtualMachine emulated(String pid) throws IOException {
        return transport == Transport.NIO
                ? VirtualMachine.ForHotSpot.attach(pid, new NioSocketConnections())
                : VirtualMachine.ForHotSpot.attach(pid);
    }

    @Override
    public String mechanism() {
        return transport.description;
    }
}
