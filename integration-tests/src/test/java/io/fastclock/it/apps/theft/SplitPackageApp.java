package io.fastclock.it.apps.theft;

import io.fastclock.it.apps.AgentVerdict;

/**
 * Reports whether a fake {@code io.fastclock.entry.PrivateModule} was handed the Instrumentation. Args:
 * {@code javaagent} (the fake is on the class path ahead of fastclock.jar; the agent started before main),
 * or {@code attach DIR TRIGGER} (fastclock.jar on the class path: the fake, from DIR, is defined next to
 * AgentEntry before the test attaches, then the test creates TRIGGER).
 */
public final class SplitPackageApp {
    private SplitPackageApp() {}

    public static void main(String[] args) throws Exception {
        if (args[0].equals("attach")) {
            Loot.define("io.fastclock.entry.AgentEntry", Loot.read(args[1], "io/fastclock/entry/PrivateModule"));
            Loot.awaitTrigger(args[2]);
        }
        AgentVerdict.await();
        Loot.report();
        System.out.println("done=1");
    }
}
