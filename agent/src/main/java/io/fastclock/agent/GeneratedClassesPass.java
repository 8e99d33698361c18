package io.fastclock.agent;

import io.fastclock.config.PublishedState;
import java.util.List;

/**
 * After an attach, the loaded classes whose class file cannot be read (generated at run time) are
 * retransformed in the background, in batches with a pause between, so that the verdict does not
 * wait for them: whether such a class calls the clocks can only be
 * learned by retransforming it (the transformer then sees its real bytes). Progress is published as
 * {@value #PENDING} (classes left; 0 when done), which {@code attach} waits for.
 */
final class GeneratedClassesPass implements Runnable {
    static final String PENDING = PublishedState.RETRANSFORM_PENDING;
    /** As the first pass: each VM operation has a large fixed cost, so fewer, fuller batches cost less in all. */
    static final int BATCH = Retransformer.BATCH;
    /** Between batches, so that the application runs between two safepoints. */
    static final long PAUSE_MILLIS = 10;

    private static volatile boolean stopped;

    private final Retransformer retransformer;
    private final List<Class<?>> classes;
    private final AgentLog log;

    private GeneratedClassesPass(Retransformer retransformer, List<Class<?>> classes, AgentLog log) {
        this.retransformer = retransformer;
        this.classes = classes;
        this.log = log;
    }

    static void start(Retransformer retransformer, List<Class<?>> classes, AgentLog log) {
        AgentState.set(PENDING, Integer.toString(classes.size()));
        Thread t = new Thread(new GeneratedClassesPass(retransformer, classes, log), "fastclock-retransform");
        t.setDaemon(true);
        t.start();
    }

    /** Detach stops the pass (what it has not reached keeps its original code anyway). */
    static void stop() {
        stopped = true;
    }

    @Override
    public void run() {
        long started = System.nanoTime();
        int done = 0;
        int failed = 0;
        try {
            for (int from = 0; from < classes.size() && !stopped; from += BATCH) {
                List<Class<?>> batch = classes.subList(from, Math.min(classes.size(), from + BATCH));
                Retransformer.Outcome outcome = retransformer.retransform(batch, BATCH);
                done += outcome.retransformed;
                failed += outcome.failed;
                AgentState.set(PENDING, Integer.toString(classes.size() - from - batch.size()));
                try {
                    Thread.sleep(PAUSE_MILLIS);
                } catch (InterruptedException e) {
                    // Not addressed to this pass (detach stops it through stop()): an application
                    // interrupting every thread must not leave classes unvisited. The pass is finite.
                }
            }
        } catch (Throwable t) {
            log.info("retransforming generated classes stopped: " + t + "; the rest keep the system clocks");
        } finally {
            AgentState.set(PENDING, "0");
            LiveAgentState.refresh();
        }
        log.debug("retransformed " + done + " generated classes (no class file to read) in the background in "
                + (System.nanoTime() - started) / 1_000_000 + " ms" + (failed == 0 ? "" : ", " + failed + " failed"));
    }
}
