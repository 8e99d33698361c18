package io.fastclock.commands.hotspot;

import com.sun.tools.attach.AttachNotSupportedException;
import com.sun.tools.attach.VirtualMachine;

import java.io.IOException;
import java.util.Properties;

/** The target's system properties through jdk.attach (as jcmd PID VM.system_properties reads them). */
final class JdkAttachProperties {
    private JdkAttachProperties() {}

    static Properties read(String pid) throws IOException {
        VirtualMachine vm;
        try {
            vm = VirtualMachine.attach(pid);
        } catch (AttachNotSupportedException e) {
            throw new IOException(e.getMessage(), e);
        }
        try {
            return vm.getSystemProperties();
        } finally {
            vm.detach();
        }
    }
}
