package io.fastclock.attach.hotspot;

import com.sun.tools.attach.AttachNotSupportedException;
import com.sun.tools.attach.VirtualMachine;

import java.io.IOException;
import java.util.Properties;

/**
 * The target's system properties (as jcmd PID VM.system_properties reads them) and agent properties
 * (where fastclock publishes its state) through jdk.attach.
 */
final class JdkAttachProperties {
    private JdkAttachProperties() {}

    static Properties[] read(String pid) throws IOException {
        VirtualMachine vm;
        try {
            vm = VirtualMachine.attach(pid);
        } catch (AttachNotSupportedException e) {
            throw new IOException(e.getMessage(), e);
        }
        try {
            return new Properties[] {vm.getSystemProperties(), vm.getAgentProperties()};
        } finally {
            vm.detach();
        }
    }
}
