package io.fastclock.attach;

import java.io.File;
import java.io.IOException;
import java.util.Properties;

/**
 * HotSpot's attach mechanism, as the commands use it. The one implementation
 * ({@code hotspot.ByteBuddyAttachApi}) is defined by a private class loader together with the
 * relocated Byte Buddy agent library (and, where this JVM lacks jdk.attach, fastclock's private
 * JNA): see {@link AttachApis}.
 */
public interface AttachApi {
    /**
     * The target's system properties ([0]: its JDK and main class, for the output) and agent
     * properties ([1]: where fastclock publishes its state; application code cannot write them),
     * read through one attach.
     */
    Properties[] systemAndAgentProperties(String pid) throws IOException;

    /** Loads {@code jar} as an agent into the target; returns when its agentmain has returned. */
    void loadAgent(String pid, File jar, String args) throws IOException;

    /** How this JVM reaches the target, for the output: "jdk.attach" or Byte Buddy's emulation over JNA. */
    String mechanism();
}
