package io.fastclock.it.apps;

import java.nio.file.Paths;
import jdk.jfr.Recording;

/**
 * JFR started well after the agent, as {@code jcmd PID JFR.start} does. args: the file for the
 * activation recording, the file for the health recording.
 *
 * <p>Reads the clock a while without JFR, then starts a recording of fastclock.Activation and
 * fastclock.TscHealth and keeps it until the agent has seen JFR up (its activation is then
 * committed), and writes it. Then records fastclock.TscHealth alone until it holds a sample (see
 * {@link JfrWaits}). Prints {@code agentJfr=up|timeout} and {@code healthSamples=}.
 */
public final class LateRecordingApp {
    public static void main(String[] args) throws Exception {
        AgentVerdict.await();
        System.out.println("backends=" + ReferenceClocks.backends().replace(' ', ','));
        long sink = spin(700);
        try (Recording recording = new Recording()) {
            recording.enable("fastclock.Activation");
            recording.enable("fastclock.TscHealth");
            recording.start();
            System.out.println("agentJfr=" + (JfrWaits.awaitAgentEventsUp() ? "up" : "timeout"));
            recording.stop();
            recording.dump(Paths.get(args[0]));
        }
        System.out.println("healthSamples=" + JfrWaits.recordHealth(Paths.get(args[1]), 1));
        System.out.println("sink=" + (sink != 0));
    }

    private static long spin(long ms) throws InterruptedException {
        long sink = 0;
        long until = System.nanoTime() + ms * 1_000_000L;
        while (System.nanoTime() < until) {
            sink += System.currentTimeMillis();
            Thread.sleep(1);
        }
        return sink;
    }
}
