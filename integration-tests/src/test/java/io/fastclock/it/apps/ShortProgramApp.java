package io.fastclock.it.apps;

/**
 * A short program at the defaults: reads both clocks from its first instruction for the given ms, or
 * until the agent's verdict ({@code fastclock.active}) if that comes later (at most 20 s), then
 * returns from main at once. Whatever the agent has to say about its verdict must be said by then.
 * args: ms, and optionally a file: then, once the verdict is in, the program starts a recording of its
 * own (as {@code jcmd JFR.start} would), ends it {@value #RECORDED_MS} ms later and writes it there.
 * Prints verdict=VALUE (null where none came) and verdictAtMain.
 */
public final class ShortProgramApp {
    static final long RECORDED_MS = 300;

    private ShortProgramApp() {}

    public static void main(String[] args) throws InterruptedException {
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
        if (args.length > 1) {
            try (jdk.jfr.Recording recording = new jdk.jfr.Recording()) {
                recording.enable("fastclock.Activation");
                recording.start();
                Thread.sleep(RECORDED_MS);
                recording.stop();
                recording.dump(java.nio.file.Paths.get(args[1]));
            } catch (Exception e) {
                System.out.println("recording=" + e);
            }
        }
        System.out.println("verdictAtMain=" + atMain);
        System.out.println("verdict=" + verdict);
        System.out.println("sum=" + (s & 1));
    }
}
