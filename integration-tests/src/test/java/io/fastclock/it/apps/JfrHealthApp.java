package io.fastclock.it.apps;

import java.lang.management.ManagementFactory;
import java.nio.file.Paths;

/**
 * fastclock's JFR side in a JVM that records from its start (-XX:StartFlightRecording=filename=...).
 * args: the file for the health recording, the TscHealth samples to wait for.
 *
 * <p>Waits until the agent has seen JFR up (its activation and retransform events are then
 * committed), stops the recording the JVM started (it is written to its file), then records
 * fastclock.TscHealth alone until it holds the samples asked for. Last it creates the platform
 * MBean server (jmx=auto then registers fastclock's MBean; not jmx=on, whose start-up JMX classes
 * would be counted into the retransform event, which is read against the start line) and prints
 * the MBean's figures, read after every sample was taken. Prints {@code agentJfr=up|timeout},
 * {@code stoppedRecordings=}, {@code healthSamples=}, {@code mbean=} and {@code mbean.NAME=}.
 */
public final class JfrHealthApp {
    public static void main(String[] args) throws Exception {
        AgentVerdict.await();
        System.out.println("backends=" + ReferenceClocks.backends().replace(' ', ','));
        System.out.println("agentJfr=" + (JfrWaits.awaitAgentEventsUp() ? "up" : "timeout"));
        System.out.println("stoppedRecordings=" + JfrWaits.stopRunningRecordings());
        System.out.println("healthSamples=" + JfrWaits.recordHealth(Paths.get(args[0]), Integer.parseInt(args[1])));
        ManagementFactory.getPlatformMBeanServer();
        ObserveApp.printMBean();
    }
}
