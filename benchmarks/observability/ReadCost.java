public class ReadCost {
    static long sink;
    public static void main(String[] a) {
        int rounds = 7, calls = 5_000_000;
        double bestMillis = Double.MAX_VALUE, bestNanos = Double.MAX_VALUE;
        for (int r = 0; r < rounds; r++) {
            long t0 = System.nanoTime();
            long acc = 0;
            for (int i = 0; i < calls; i++) acc += System.currentTimeMillis();
            long t1 = System.nanoTime();
            for (int i = 0; i < calls; i++) acc += System.nanoTime();
            long t2 = System.nanoTime();
            sink += acc;
            bestMillis = Math.min(bestMillis, (t1 - t0) / (double) calls);
            bestNanos = Math.min(bestNanos, (t2 - t1) / (double) calls);
        }
        System.out.printf("millis %.1f ns, nanos %.1f ns%n", bestMillis, bestNanos);
    }
}
