package io.fastclock.it.apps.theft;

import io.fastclock.it.apps.AgentVerdict;

/**
 * Holds a class named like fastclock's runtime, {@code io.fastclock.runtime.FastClock} ({@link
 * ShadowFastClock} renamed), in its own class loader before fastclock's rewritten call sites could
 * link to it, then loads a new class that calls the clocks ({@link ClockCheck}). Args: the variant and
 * its own:
 * <ul>
 *   <li>{@code background}: the shadow is on the class path and loaded first thing in main, under
 *       start=background; the check runs once the agent has decided;</li>
 *   <li>{@code attach TRIGGER}: the shadow is on the class path and loaded; the test attaches, then
 *       creates TRIGGER;</li>
 *   <li>{@code seed DIR}: the agent is active before main; {@code io.fastclock.runtime.Seed} is on the
 *       class path, and the shadow (from DIR) is defined next to it with a private lookup.</li>
 * </ul>
 */
public final class ShadowRuntimeApp {
    static final String FAST_CLOCK = "io.fastclock.runtime.FastClock";

    private ShadowRuntimeApp() {}

    public static void main(String[] args) throws Throwable {
        String variant = args[0];
        if (variant.equals("detached")) {
            // The runtime's name refused again once the operator detached (args: fakes, trigger).
            AgentVerdict.await();
            Loot.awaitTrigger(args[2]);
            Loot.define("io.fastclock.runtime.Seed", Loot.read(args[1], FAST_CLOCK.replace('.', '/')));
            ClockCheck.print();
            System.out.println("done=1");
            return;
        }
        if (variant.equals("seed")) {
            Loot.define("io.fastclock.runtime.Seed", Loot.read(args[1], FAST_CLOCK.replace('.', '/')));
        } else {
            Class.forName(FAST_CLOCK);
        }
        ClassLoader mine = ShadowRuntimeApp.class.getClassLoader();
        System.out.println("shadowInAppLoader=" + (Class.forName(FAST_CLOCK, false, mine).getClassLoader() == mine));
        if (variant.equals("background")) {
            Loot.awaitBackgroundStart();
        } else if (variant.equals("seed")) {
            AgentVerdict.await();
        } else if (variant.equals("attach")) {
            Loot.awaitTrigger(args[1]);
        }
        ClockCheck.print();
        System.out.println("done=1");
    }
}
