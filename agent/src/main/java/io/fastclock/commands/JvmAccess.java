package io.fastclock.commands;

import io.fastclock.attach.AttachApi;
import io.fastclock.attach.AttachApis;
import io.fastclock.attach.AttachTransport;

import java.io.IOException;
import java.nio.file.Path;

/**
 * What the commands that attach (attach, status, list, detach) take from outside: the attach
 * mechanism over the transport their {@code --transport} names, and fastclock.jar to load. A fake
 * in tests, as the doctor's {@link DoctorCommand.Reporter} is.
 */
interface JvmAccess {
    /** The one for real: {@link AttachApis}, and the jar this runs from. */
    JvmAccess REAL = new JvmAccess() {
        @Override
        public AttachApi api(AttachTransport transport) throws IOException {
            return AttachApis.forThisJvm(transport);
        }

        @Override
        public Path jar(String command) throws Exit {
            return Commands.ownJarFor(command);
        }
    };

    /** @param transport the one {@code --transport} names, or null to let {@link AttachApis} choose */
    AttachApi api(AttachTransport transport) throws IOException;

    /** fastclock.jar, to load into a JVM. */
    Path jar(String command) throws Exit;
}
