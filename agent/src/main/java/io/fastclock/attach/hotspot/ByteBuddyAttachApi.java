package io.fastclock.attach.hotspot;

import io.fastclock.attach.AttachApi;
import io.fastclock.attach.AttachTransport;
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
    private final AttachTransport transport;
    private final String mechanism;

    /** @param mechanism what {@link #mechanism()} says: the transport, and why it was chosen */
    public ByteBuddyAttachApi(AttachTransport transport, String mechanism) {
        this.transport = transport;
        this.mechanism = mechanism;
    }

    @Override
    public Properties[] systemAndAgentProperties(String pid) throws IOException {
        if (transport == AttachTransport.JDK_ATTACH) {
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
        if (transport == AttachTransport.NIO) {
            VirtualMachine vm = emulated(pid);
            try {
                vm.loadAgent(jar.getAbsolutePath(), args);
            } finally {
                vm.detach();
            }
            return;
        }
        ByteBuddyAgent.AttachmentProvider provider = transport == AttachTransport.JDK_ATTACH
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
        return transport == AttachTransport.NIO
                ? VirtualMachine.ForHotSpot.attach(pid, new NioSocketConnections())
                : VirtualMachine.ForHotSpot.attach(pid);
    }

    @Override
    public String mechanism() {
        return mechanism;
    }
}
