package io.fastclock.examples;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A set-up's JVM running {@link RoundServer}: sends it a command and reads its answer, and keeps
 * what it printed on stderr (the agent's start line) to show at the end. The answer is read on the
 * caller's thread: on a busy machine every hand-over between threads waits for a CPU.
 */
final class SetUpJvm implements AutoCloseable {

    /** Lines of stderr kept: the agent says one or two; a JVM in trouble says more than anyone reads. */
    static final int STDERR_LINES = 20;
    /** Ends a JVM that does not answer in time, which ends the read that waits for it. */
    private static final ScheduledExecutorService WATCHDOG = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "demo-watchdog");
        t.setDaemon(true);
        return t;
    });

    final SetUp setUp;
    private final Process process;
    private final Writer in;
    private final BufferedReader out;
    private final List<String> stderr = new ArrayList<>();

    private SetUpJvm(SetUp setUp, Process process) {
        this.setUp = setUp;
        this.process = process;
        this.in = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        Thread t = new Thread(this::keepStderr, "demo-" + setUp.id + "-stderr");
        t.setDaemon(true);
        t.start();
    }

    static SetUpJvm start(SetUp setUp, List<String> command, Map<String, String> environment) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().clear();
        pb.environment().putAll(environment);
        return new SetUpJvm(setUp, pb.start());
    }

    /** Sends a command and returns its answer (without the prefix). */
    String ask(String command, long timeoutMillis) throws IOException {
        in.write(command + "\n");
        in.flush();
        return await(timeoutMillis);
    }

    /** The next answer, e.g. the "ready" the JVM says once started. */
    String await(long timeoutMillis) throws IOException {
        ScheduledFuture<?> watchdog = WATCHDOG.schedule(process::destroyForcibly, timeoutMillis, TimeUnit.MILLISECONDS);
        try {
            String line;
            while ((line = out.readLine()) != null) {
                if (line.startsWith(RoundServer.PREFIX)) {
                    return line.substring(RoundServer.PREFIX.length());
                }
            }
        } finally {
            watchdog.cancel(false);
        }
        throw new IOException("the " + setUp.label + " JVM " + (watchdog.isDone() && !watchdog.isCancelled()
                ? "did not answer within " + timeoutMillis / 1000 + " s" : "ended") + "; it said on stderr: " + stderr());
    }

    List<String> stderr() {
        synchronized (stderr) {
            return new ArrayList<>(stderr);
        }
    }

    /** Ends it: its input closes, it finishes what it was doing and exits; one that does not is killed. */
    @Override
    public void close() {
        try {
            in.close();
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (IOException e) {
            process.destroyForcibly();
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private void keepStderr() {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                synchronized (stderr) {
                    if (stderr.size() < STDERR_LINES) {
                        stderr.add(line);
                    }
                }
            }
        } catch (IOException e) {
            // the JVM ended: await says so
        }
    }
}
