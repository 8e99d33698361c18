package io.fastclock.observe;
public class JfrRegistrationCost {
    public static void main(String[] a) throws Exception {
        jdk.jfr.Recording r = new jdk.jfr.Recording(); r.start();
        ActivationFacts f = ActivationFacts.inactive("premain", "x", "tsc", 100);
        long t0 = System.nanoTime();
        boolean up = JfrEvents.activated(f);
        long t1 = System.nanoTime();
        System.out.printf("recorderUp %b: %.1f ms%n", up, (t1 - t0) / 1e6);
    }
}
