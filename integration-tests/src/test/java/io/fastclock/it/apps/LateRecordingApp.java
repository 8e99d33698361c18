package io.fastclock.it.apps;

import java.nio.file.Paths;
import jdk.jfr.Recording;

/**
 * JFR started well after the agent, as {@code jcmd PID JFR.start} does: args: the file to dump
 * the recording to. Reads the clock meanwhile; records for 2.5 s.
 */
public final class LateRecordingApp {
    public static void main(String[] args) throws Exception {
        System.out.println("backends=" + ReferenceClocks.backends().replace(' ', ','));
        long sink = spin(700);
        try (Recording recording = new Recording()) {
            recording.enable("fastclock.Activation");
            recording.enable("fastclock.TscHealth");
            recording.start();
            sink += spin(2500);
            recording.stop();
            recording.dump(Paths.get(args[0]));
        }
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
