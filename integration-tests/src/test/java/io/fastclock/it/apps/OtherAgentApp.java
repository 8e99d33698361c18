package io.fastclock.it.apps;

/** Runs with fastclock and OtherAgent attached: both transformed it, and its clocks still work. */
public final class OtherAgentApp {
    public static void main(String[] args) throws Exception {
        AgentVerdict.await();
        long millisBefore = ReferenceClocks.millis();
        long millis = System.currentTimeMillis();
        String millisOff = Bracket.millis("millisPlausible", millisBefore, millis, 1000, 1000);
        long previous = System.nanoTime();
        long backwards = 0;
        for (int i = 0; i < 100_000; i++) {
            long now = System.nanoTime();
            if (now < previous) {
                backwards++;
            }
            previous = now;
        }
        System.out.println("hello=ok");
        System.out.println("backends=" + ReferenceClocks.backends().replace(' ', ','));
        System.out.println("millisPlausible=" + (millisOff == null ? "true" : "false: " + millisOff));
        System.out.println("backwards=" + backwards);
        boolean marked;
        try {
            OtherAgentApp.class.getDeclaredField("otherAgentMark");
            marked = true;
        } catch (NoSuchFieldException e) {
            marked = false;
        }
        System.out.println("markedByOtherAgent=" + marked);
        System.out.println("otherAgentSeen=" + OtherAgent.SEEN.get());
        System.out.println("otherAgentMarked=" + OtherAgent.MARKED.get());
        System.out.println("otherAgentGotBytesNaming=" + OtherAgent.appBytesMention);
    }
}
