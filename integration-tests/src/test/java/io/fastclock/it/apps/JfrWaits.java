package io.fastclock.it.apps;

import java.nio.file.Files;
import java.nio.file.Path;
import jdk.jfr.EventType;
import jdk.jfr.FlightRecorder;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

/**
 * Waits on what fastclock does in JDK Flight Recorder, by condition and with a generous deadline,
 * never for a fixed time. Loaded only by apps that record (it names jdk.jfr types).
 */
public final class JfrWaits {
    /** Far beyond what any of these waits needs, even on a loaded machine. */
    public static final long DEADLINE_MS = 60_000;
    static final String HEALTH = "fastclock.TscHealth";

    /** Where the clock reads made while waiting go. */
    static long sink;

    private JfrWaits() {}

    /**
     * Until the agent has registered fastclock.TscHealth with JFR: it does that once it has seen JFR
     * up, right after committing the activation and the retransformations done so far (and only
     * where a TSC clock runs). Reads the clock meanwhile. @return whether that happened in time
     */
    public static boolean awaitAgentEventsUp() throws InterruptedException {
        long deadline = System.nanoTime() + DEADLINE_MS * 1_000_000L;
        while (!registered(HEALTH)) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            sink += System.currentTimeMillis();
            Thread.sleep(5);
        }
        return true;
    }

    static boolean registered(String name) {
        for (EventType type : FlightRecorder.getFlightRecorder().getEventTypes()) {
            if (type.getName().equals(name)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Records fastclock.TscHealth alone (at its own period) until the recording holds {@code samples}
     * of them or the deadline passes, reading the clock meanwhile, then writes it to {@code out}.
     * Only this recording is running while it waits, so the dumps that look into it cut no chunk of
     * a recording whose events a test counts.
     *
     * @return the samples the written recording holds
     */
    public static int recordHealth(Path out, int samples) throws Exception {
        Path look = Files.createTempFile("fastclock-health", ".jfr");
        try (Recording recording = new Recording()) {
            recording.enable(HEALTH);
            recording.start();
            long deadline = System.nanoTime() + DEADLINE_MS * 1_000_000L;
            while (System.nanoTime() < deadline) {
                recording.dump(look);
                if (count(look) >= samples) {
                    break;
                }
                for (int i = 0; i < 50; i++) {
                    sink += System.currentTimeMillis();
                    Thread.sleep(2);
                }
            }
            recording.stop();
            recording.dump(out);
        } finally {
            Files.deleteIfExists(look);
        }
        return count(out);
    }

    private static int count(Path file) throws Exception {
        int n = 0;
        for (RecordedEvent e : RecordingFile.readAllEvents(file)) {
            if (e.getEventType().getName().equals(HEALTH)) {
                n++;
            }
        }
        return n;
    }

    /** Stops every running recording (one started with a file name writes it now). @return how many */
    public static int stopRunningRecordings() {
        int stopped = 0;
        for (Recording r : FlightRecorder.getFlightRecorder().getRecordings()) {
            if (r.getState() == jdk.jfr.RecordingState.RUNNING) {
                r.stop();
                stopped++;
            }
        }
        return stopped;
    }
}
