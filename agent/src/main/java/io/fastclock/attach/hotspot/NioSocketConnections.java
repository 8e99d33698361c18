package io.fastclock.attach.hotspot;

import net.bytebuddy.agent.VirtualMachine;

import java.io.File;
import java.io.IOException;
import java.lang.reflect.Method;
import java.net.ProtocolFamily;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;

/**
 * Byte Buddy's HotSpot attach protocol over a UNIX-domain socket of java.nio (JDK 16+, JEP 380)
 * instead of JNA: for a JVM without jdk.attach where JNA cannot load (JNA needs java.logging, which
 * a small jlink image leaves out). The attach trigger (SIGQUIT after creating .attach_pidN) is sent
 * with kill(1), as the JDK gives Java code no way to send a signal. Reached only by reflection on
 * the JDK 16 classes, since fastclock is compiled for Java 11.
 */
final class NioSocketConnections extends VirtualMachine.ForHotSpot.Connection.Factory.ForSocketFile {
    static final int ATTEMPTS = 100;
    static final long PAUSE_MILLIS = 100;

    NioSocketConnections() {
        super("/tmp", ATTEMPTS, PAUSE_MILLIS, TimeUnit.MILLISECONDS);
    }

    /** JDK 16 or later: java.net.UnixDomainSocketAddress exists. */
    static boolean available() {
        try {
            Class.forName("java.net.UnixDomainSocketAddress");
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    @Override
    protected void kill(String processId, int signal) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, processId).redirectErrorStream(true).start();
            kill.getInputStream().readAllBytes();
            kill.waitFor();
        } catch (IOException e) {
            throw new IllegalStateException("cannot run kill(1) to wake the JVM " + processId + "'s attach listener: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    @Override
    protected VirtualMachine.ForHotSpot.Connection doConnect(File socket) {
        return new Channel(socket);
    }

    /** One socket connection per command, as HotSpot's attach listener expects. */
    private static final class Channel extends VirtualMachine.ForHotSpot.Connection.OnPersistentByteChannel<SocketChannel> {
        private final File socket;

        Channel(File socket) {
            this.socket = socket;
        }

        @Override
        protected SocketChannel connect() throws IOException {
            try {
                Method of = Class.forName("java.net.UnixDomainSocketAddress").getMethod("of", String.class);
                SocketAddress address = (SocketAddress) of.invoke(null, socket.getAbsolutePath());
                Method open = SocketChannel.class.getMethod("open", ProtocolFamily.class);
                SocketChannel channel = (SocketChannel) open.invoke(null, StandardProtocolFamily.valueOf("UNIX"));
                try {
                    channel.connect(address);
                } catch (IOException e) {
                    channel.close();
                    throw e;
                }
                return channel;
            } catch (ReflectiveOperationException | IllegalArgumentException e) {
                throw new IOException("UNIX-domain sockets of java.nio are not available here: " + e, e);
            }
        }

        @Override
        protected void close(SocketChannel channel) throws IOException {
            channel.close();
        }

        @Override
        protected void write(SocketChannel channel, byte[] buffer) throws IOException {
            ByteBuffer b = ByteBuffer.wrap(buffer);
            while (b.hasRemaining()) {
                channel.write(b);
            }
        }

        @Override
        protected int read(SocketChannel channel, byte[] buffer) throws IOException {
            return channel.read(ByteBuffer.wrap(buffer));
        }

        @Override
        public void close() {
            // nothing persistent: each command opened and closed its own channel
        }
    }
}
