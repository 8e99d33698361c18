import javax.management.MBeanServerFactory;
import jdk.jfr.FlightRecorder;
public class CheckCost {
    public static void main(String[] a) {
        long t0 = System.nanoTime();
        int n0 = MBeanServerFactory.findMBeanServer(null).size();
        long t1 = System.nanoTime();
        boolean j0 = FlightRecorder.isInitialized();
        long t2 = System.nanoTime();
        System.out.printf("first findMBeanServer (class load) %.1f us, first isInitialized %.1f us%n", (t1-t0)/1e3, (t2-t1)/1e3);
        long sink = 0; double bestF = 1e9, bestJ = 1e9;
        for (int r = 0; r < 5; r++) {
            long s = System.nanoTime();
            for (int i = 0; i < 1_000_000; i++) sink += MBeanServerFactory.findMBeanServer(null).size();
            long m = System.nanoTime();
            for (int i = 0; i < 1_000_000; i++) sink += FlightRecorder.isInitialized() ? 1 : 0;
            long e = System.nanoTime();
            bestF = Math.min(bestF, (m - s) / 1e6); bestJ = Math.min(bestJ, (e - m) / 1e6);
        }
        System.out.printf("findMBeanServer(null) %.1f ns/call, FlightRecorder.isInitialized() %.1f ns/call (%d %b %d)%n", bestF, bestJ, n0, j0, sink);
    }
}
