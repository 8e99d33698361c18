package io.fastclock.it.apps.theft;

/**
 * Races start=background's thread: first thing in main, defines a fake of one of the agent's entry
 * classes ({@code io/fastclock/entry/PrivateModule$JarModuleReader}, which serves a fake Launch,
 * {@code io/fastclock/entry/PrivateModule} or {@code io/fastclock/entry/BackgroundStart}) next to AgentEntry, then reports whether a fake was handed
 * the Instrumentation once the agent has decided. Args: the fakes' directory, the internal name to define.
 */
public final class BackgroundRaceApp {
    /** The fake Launch's class file, served by the fake reader. */
    public static volatile byte[] fakeLaunch;

    private BackgroundRaceApp() {}

    public static void main(String[] args) throws Exception {
        fakeLaunch = Loot.read(args[0], "io/fastclock/agent/Launch");
        Loot.define("io.fastclock.entry.AgentEntry", Loot.read(args[0], args[1]));
        Loot.awaitBackgroundStart();
        Loot.report();
        System.out.println("done=1");
    }
}
