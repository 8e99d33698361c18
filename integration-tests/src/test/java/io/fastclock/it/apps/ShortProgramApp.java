package io.fastclock.it.apps;

/**
 * A short program at the defaults: reads both clocks from its first instruction for the given ms, or
 * until the agent's verdict ({@code fastclock.active}) if that comes later (at most 20 s), then
 * returns from main at once. Whatever the agent has to say about its verdict must be said by then.
 * args: ms. Prints verdict=VALUE (null where none came) and verdictAtMain.
 */
public final class ShortProgramApp {
    private ShortProgramApp() {}

    public static void main(String[] args) {
        String atMain = System.getProperty("fastclock.active");
        long start = System.nanoTime();
        long end = start + Long.parseLong(args[0]) * 1_000_000L;
        long latest = start + 20_000_000_000L;
        long s = 0;
        String verdict = null;
        while (true) {
            s += System.currentTimeMillis() + System.nanoTime();
            long now = System.nanoTime();
            if (verdict == null) {
                verdict = System.getProperty("fastclock.active");
            }
            if ((now >= end && verdict != null) || now >= latest) {
                break;
            }
        }
        System.out.println("verdictAtMain=" + atMain);
        System.out.println("verdict=" + verdict);
        System.out.println("sum=" + (s & 1));
    }
}
