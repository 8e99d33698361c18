package io.fastclock.rewrite;

import java.util.function.Consumer;

/**
 * log=debug: a line for each class rewritten as it loads, or left unchanged, given to a sink. One
 * wording before the verdict (the boot runtime's listener, io.fastclock.boot.EarlyStart) and after it
 * (the agent's, io.fastclock.agent.AgentStartup).
 */
public final class RewriteLines implements RewriteListener {
    private final Consumer<String> sink;

    public RewriteLines(Consumer<String> sink) {
        this.sink = sink;
    }

    @Override
    public void rewritten(String className, int callSites) {
        sink.accept("rewrote " + className.replace('/', '.') + " (" + callSites + " call sites)");
    }

    @Override
    public void failed(String className, Throwable t) {
        sink.accept("left " + className.replace('/', '.') + " unchanged: rewriting it failed: " + t);
    }
}
