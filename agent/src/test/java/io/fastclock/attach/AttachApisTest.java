package io.fastclock.attach;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

class AttachApisTest {

    @Test
    void theTransportAskedForIsTheOneUsedAndSaidToBe() throws Exception {
        // A JDK: jdk.attach is there, and chosen when nothing is asked for.
        assertEquals("jdk.attach", AttachApis.forThisJvm(null).mechanism());
        assertEquals("jdk.attach (as asked)", AttachApis.forThisJvm(AttachTransport.JDK_ATTACH).mechanism());
        assertEquals("Byte Buddy's HotSpot attach protocol over a java.nio UNIX socket (as asked)",
                AttachApis.forThisJvm(AttachTransport.NIO).mechanism());
    }

    @Test
    void theCommandLineNamesEachTransportOneWay() {
        assertEquals(AttachTransport.JDK_ATTACH, AttachTransport.named("jdk_attach"));
        assertEquals(AttachTransport.JNA, AttachTransport.named("jna"));
        assertEquals(AttachTransport.NIO, AttachTransport.named("nio"));
        for (String other : new String[] {"JNA", "jdk.attach", "", "socket", null}) {
            assertNull(AttachTransport.named(other), other);
        }
        assertEquals("jdk_attach, jna or nio", AttachTransport.choices());
    }
}
